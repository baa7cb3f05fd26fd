package io.ketama.bench;

import io.ketama.core.BoundedLoads;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import java.util.concurrent.TimeUnit;
import java.util.function.IntToLongFunction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The bounded-load chooser ({@link BoundedLoads#choose(byte[], IntToLongFunction, long)}) beside the
 * plain lookup ({@link KetamaRing#locate(byte[])}) on the same ring and keys, in the same run:
 * {@code plain}; {@code boundedRoom}, every node under its bound (the answer is the owner: what the
 * bound adds to a lookup); {@code boundedFull}, a fifth of the nodes at their bound, so a fifth of the
 * keys walk on to a node with room. One operation = one key. Run with {@code -prof gc} to see that
 * neither allocates.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class BoundedLoadBench {

    @State(Scope.Benchmark)
    public static class Setting {
        @Param({"100-v1", "100-v2.16", "2048-v2.16"})
        public String row;
        KetamaRing<String> ring;
        BoundedLoads<String> bounded;
        byte[][] keys;
        long[] room;
        long[] full;
        IntToLongFunction roomLoads;
        IntToLongFunction fullLoads;
        long total;

        @Setup(Level.Trial)
        public void setUp() {
            ring = RingRow.of(row).build();
            bounded = BoundedLoads.of(ring, 1.25);
            keys = Keys.bytes(30);
            int n = ring.nodeCount();
            room = new long[n];
            full = new long[n];
            total = 1_000L * n;
            for (int i = 0; i < n; i++) {
                room[i] = 1_000;
                // every fifth node at its bound: ⌈1.25 × (total + 1) × w / W⌉
                full[i] = i % 5 == 0 ? bounded.bound(i, total) : 1_000;
            }
            long[] r = room;
            long[] f = full;
            roomLoads = node -> r[node];
            fullLoads = node -> f[node];
        }
    }

    @State(Scope.Thread)
    public static class Cursor {
        int i;

        byte[] next(Setting s) {
            return s.keys[i++ & Keys.MASK];
        }
    }

    @Benchmark
    public Node<String> plain(Setting s, Cursor c) {
        return s.ring.locate(c.next(s));
    }

    @Benchmark
    public int boundedRoom(Setting s, Cursor c) {
        return s.bounded.choose(c.next(s), s.roomLoads, s.total);
    }

    @Benchmark
    public int boundedFull(Setting s, Cursor c) {
        return s.bounded.choose(c.next(s), s.fullLoads, s.total);
    }
}
