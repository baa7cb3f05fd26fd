package io.ketama.bench;

import io.ketama.core.Crc32;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * CRC-32 alone of the same 30-byte keys: {@link Crc32#hash(byte[])} (what byte-key lookups use:
 * the JDK's intrinsic), the table-driven slicing-by-8 of {@link Crc32#update}, a reused
 * {@link CRC32} object (what a caller holding one per thread would do), and
 * {@link Crc32#hashUtf8(CharSequence)} of the same keys as {@code String}s.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class HashBench {

    @State(Scope.Thread)
    public static class Reused {
        final CRC32 crc = new CRC32();
    }

    @Benchmark
    public int crc32(LookupBench.KeySet k, LookupBench.Cursor c) {
        return Crc32.hash(c.next(k));
    }

    @Benchmark
    public int crc32Tables(LookupBench.KeySet k, LookupBench.Cursor c) {
        byte[] key = c.next(k);
        return Crc32.finish(Crc32.update(Crc32.INITIAL, key, 0, key.length));
    }

    /** CRC-32 of the UTF-8 of a {@code String} key without encoding it (what {@code locate(CharSequence)} uses). */
    @Benchmark
    public int crc32Utf8(PeerBench.Strings k, LookupBench.Cursor c) {
        return Crc32.hashUtf8(k.keys[c.i++ & Keys.MASK]);
    }

    @Benchmark
    public int crc32JdkReused(Reused r, LookupBench.KeySet k, LookupBench.Cursor c) {
        byte[] key = c.next(k);
        r.crc.reset();
        r.crc.update(key, 0, key.length);
        return (int) r.crc.getValue();
    }
}
