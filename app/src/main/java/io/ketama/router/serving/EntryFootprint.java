package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/**
 * The heap a cached answer takes beyond its key's and body's bytes (each padded to 8), for the
 * cache's byte bound: the map's node and its share of the table, Caffeine's node and frequency
 * sketch, the key's {@code String} and array header, the {@link OriginAnswer} record and the body's
 * array header. Measured with JOL over whole caches of 3,000 to 16,400 entries, keys of 3 to 40
 * bytes, bodies of 0 to 4,096 bytes (LocalCacheFootprintTest; BENCHMARKS.md "Bytes per cached
 * answer"):
 * <ul>
 *   <li>compressed references (every heap under 32 GB, the JVM's default there): 139 to 155 bytes
 *   with 8-byte (compact) object headers, 157 to 163 with 12-byte headers; counted as
 *   {@value #COMPRESSED_REFERENCES};</li>
 *   <li>without them (larger heaps, or {@code -XX:-UseCompressedOops}): 187 to 206 bytes with
 *   8-byte headers, 203 to 214 with 12-byte headers; counted as {@value #WIDE_REFERENCES};</li>
 *   <li>with 16-byte headers ({@code -XX:-UseCompressedClassPointers}, deprecated in JDK 25):
 *   187 to 203 bytes with compressed references, 235 to 254 without; counted as the above plus
 *   {@value #UNCOMPRESSED_CLASS_POINTERS}.</li>
 * </ul>
 * So with compressed references an entry of a 1 KiB answer and an 8-byte key weighs 1,208 bytes
 * (18 % beyond the body), one of a 100-byte answer 296 bytes (three times the body).
 */
final class EntryFootprint {

    static final int COMPRESSED_REFERENCES = 192;
    static final int WIDE_REFERENCES = 240;
    static final int UNCOMPRESSED_CLASS_POINTERS = 32;

    private static final boolean COMPRESSED_OOPS = flag("UseCompressedOops", false);
    private static final boolean COMPRESSED_CLASS_POINTERS = flag("UseCompressedClassPointers", false);
    private static final boolean COMPACT_HEADERS = flag("UseCompactObjectHeaders", false); // JDK 24+

    /**
     * What each variant of a key beyond the first adds besides its answer's bytes: the
     * {@code Variant} object, the answer's object and its fields' object, a slot in the array of
     * variants. Measured with JOL with the entries (LocalCacheFootprintTest).
     */
    static final int VARIANT_BYTES = 96;

    /** This JVM's overhead per entry; the widest figure where the layout cannot be read. */
    static final int OVERHEAD_BYTES = (COMPRESSED_OOPS ? COMPRESSED_REFERENCES : WIDE_REFERENCES)
            + (COMPRESSED_CLASS_POINTERS ? 0 : UNCOMPRESSED_CLASS_POINTERS);

    /** An object's header: mark word and class pointer. */
    private static final int HEADER = COMPACT_HEADERS ? 8 : COMPRESSED_CLASS_POINTERS ? 12 : 16;
    /** A {@code String}: header, its array's reference, {@code int hash}, {@code byte coder}, {@code boolean hashIsZero}. */
    private static final int STRING_OBJECT = (int) padded(HEADER + (COMPRESSED_OOPS ? 4 : 8) + 4 + 1 + 1);

    private EntryFootprint() {
    }

    /**
     * The heap a {@code String} of its own takes (a content type an answer does not share): the
     * object (24 bytes with compressed references, 32 without) and its array (header and length,
     * then one byte a char, two where a char is past Latin-1, padded to 8). LocalCacheFootprintTest
     * measures it with JOL on the JVM's layout.
     */
    static long string(String s) {
        boolean latin1 = s.chars().allMatch(c -> c < 256);
        return STRING_OBJECT + padded(HEADER + 4 + (latin1 ? s.length() : 2L * s.length()));
    }

    /** The heap an array of {@code length} references takes: header, length, references, padded. */
    static long referenceArray(long length) {
        return padded(HEADER + 4 + length * (COMPRESSED_OOPS ? 4 : 8));
    }

    /** {@code bytes} rounded up to a multiple of 8, as an array's contents take room. */
    static long padded(long bytes) {
        return (bytes + 7) & ~7L;
    }

    /** A boolean VM option; {@code otherwise} where it does not exist or cannot be read (not HotSpot). */
    private static boolean flag(String name, boolean otherwise) {
        try {
            HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return hotSpot == null ? otherwise : Boolean.parseBoolean(hotSpot.getVMOption(name).getValue());
        } catch (RuntimeException | LinkageError e) {
            return otherwise; // unknown option (older JDK) or no jdk.management: the wider layout keeps the bound
        }
    }
}
