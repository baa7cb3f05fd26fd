package io.ketama.router.serving;

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
 *   <li>without them (larger heaps, or {@code -XX:-UseCompressedOops}): 203 to 214 bytes; counted
 *   as {@value #WIDE_REFERENCES}.</li>
 * </ul>
 * So with compressed references an entry of a 1 KiB answer and an 8-byte key weighs 1,208 bytes
 * (18 % beyond the body), one of a 100-byte answer 296 bytes (three times the body).
 */
final class EntryFootprint {

    static final int COMPRESSED_REFERENCES = 176;
    static final int WIDE_REFERENCES = 224;

    /** This JVM's overhead per entry; the wide figure where the layout cannot be read. */
    static final int OVERHEAD_BYTES = compressedReferences() ? COMPRESSED_REFERENCES : WIDE_REFERENCES;

    private EntryFootprint() {
    }

    /** {@code bytes} rounded up to a multiple of 8, as an array's contents take room. */
    static long padded(int bytes) {
        return ((long) bytes + 7) & ~7L;
    }

    private static boolean compressedReferences() {
        try {
            HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return hotSpot != null && Boolean.parseBoolean(hotSpot.getVMOption("UseCompressedOops").getValue());
        } catch (RuntimeException | LinkageError e) {
            return false; // not HotSpot, or no jdk.management: count the larger overhead, so the bound still holds
        }
    }
}
