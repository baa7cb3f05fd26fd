package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/**
 * The heap a stored answer takes beyond its key's and body's bytes (each padded to 8) and its header
 * fields' (their array and the strings not shared, counted apart), for the cache's byte bound: the
 * map's node and its share of the table, Caffeine's node (with its expiry) and frequency sketch, the
 * key's {@code String} and array header, the key's {@code Variants} and its array, the
 * {@code Variant}, the {@link OriginAnswer} and its {@code HttpFields}, the body's array header, and
 * what the policy read of the answer once ({@code AnswerFacts}; its {@code Cache-Control} directives
 * are one shared instance per value). Measured with JOL over whole caches of 2,000 to 16,400 entries,
 * keys of 3 to 40 bytes, bodies of 0 to 4,096 bytes, 1 to 3 variants (LocalCacheFootprintTest;
 * BENCHMARKS.md "Bytes per cached answer"), the largest seen counted:
 * <table>
 *   <caption>bytes an entry, and each further variant of its key</caption>
 *   <tr><th>layout</th><th>entry</th><th>variant</th></tr>
 *   <tr><td>compressed references, 8-byte (compact) headers</td><td>{@value #COMPACT_COMPRESSED}</td><td>{@value #COMPACT_COMPRESSED_VARIANT}</td></tr>
 *   <tr><td>compressed references, 12-byte headers</td><td>{@value #COMPRESSED}</td><td>{@value #COMPRESSED_VARIANT}</td></tr>
 *   <tr><td>wide references, 8-byte headers</td><td>{@value #COMPACT_WIDE}</td><td>{@value #COMPACT_WIDE_VARIANT}</td></tr>
 *   <tr><td>wide references, 12-byte headers</td><td>{@value #WIDE}</td><td>{@value #WIDE_VARIANT}</td></tr>
 * </table>
 * Compressed references are the JVM's default on heaps under 32 GB; wide ones on larger heaps or with
 * {@code -XX:-UseCompressedOops}. With 16-byte headers ({@code -XX:-UseCompressedClassPointers},
 * deprecated in JDK 25; not measured) the 12-byte figures plus {@value #UNCOMPRESSED_CLASS_POINTERS}
 * an object are counted. So with compact headers and compressed references an entry of a 1 KiB answer
 * with typical fields (a {@code Date}, {@code ETag}, {@code Last-Modified} and {@code Content-Length}
 * of its own) and an 8-byte key weighs about 1,650 bytes, 60 % beyond the body; one of a 100-byte
 * answer with only shared fields about 450 bytes.
 */
final class EntryFootprint {

    static final int COMPACT_COMPRESSED = 304;
    static final int COMPACT_COMPRESSED_VARIANT = 200;
    static final int COMPRESSED = 352;
    static final int COMPRESSED_VARIANT = 248;
    static final int COMPACT_WIDE = 408;
    static final int COMPACT_WIDE_VARIANT = 296;
    static final int WIDE = 432;
    static final int WIDE_VARIANT = 320;
    /** Per object, where class pointers are not compressed: the entry's dozen objects, the variant's eight. */
    static final int UNCOMPRESSED_CLASS_POINTERS = 4;

    private static final boolean COMPRESSED_OOPS = flag("UseCompressedOops", false);
    private static final boolean COMPRESSED_CLASS_POINTERS = flag("UseCompressedClassPointers", false);
    private static final boolean COMPACT_HEADERS = flag("UseCompactObjectHeaders", false); // JDK 24+

    /** This JVM's overhead per entry; the widest figure where the layout cannot be read. */
    static final int OVERHEAD_BYTES = (COMPACT_HEADERS ? (COMPRESSED_OOPS ? COMPACT_COMPRESSED : COMPACT_WIDE)
            : (COMPRESSED_OOPS ? COMPRESSED : WIDE)) + (COMPACT_HEADERS || COMPRESSED_CLASS_POINTERS ? 0 : 12 * UNCOMPRESSED_CLASS_POINTERS);

    /** This JVM's overhead per further variant of a key. */
    static final int VARIANT_BYTES = (COMPACT_HEADERS ? (COMPRESSED_OOPS ? COMPACT_COMPRESSED_VARIANT : COMPACT_WIDE_VARIANT)
            : (COMPRESSED_OOPS ? COMPRESSED_VARIANT : WIDE_VARIANT)) + (COMPACT_HEADERS || COMPRESSED_CLASS_POINTERS ? 0 : 8 * UNCOMPRESSED_CLASS_POINTERS);

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
