package io.ketama.bench;

import io.ketama.core.Crc32;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import java.util.Random;
import java.util.concurrent.TimeUnit;
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
 * Time per lookup on each ring of the comparison table, beside the two baselines sized to the same
 * ring: the floor (CRC-32 of the key plus one read at a random index of an {@code int[]} with as
 * many elements as the ring has points: what any ring lookup must at least pay) and a
 * {@code TreeMap<Long, node>} ketama holding the same points. One operation = one lookup of the
 * next precomputed key.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class LookupBench {

    @State(Scope.Benchmark)
    public static class KeySet {
        byte[][] keys;

        @Setup(Level.Trial)
        public void setUp() {
            keys = Keys.bytes(30);
        }
    }

    @State(Scope.Thread)
    public static class Cursor {
        int i;

        byte[] next(KeySet k) {
            return k.keys[i++ & Keys.MASK];
        }
    }

    @State(Scope.Benchmark)
    public static class Ring {
        @Param({"100-v1", "100-v2.160", "100-v2.16", "2048-v1", "2048-v2.160", "2048-v2.16"})
        public String row;
        KetamaRing<String> ring;

        @Setup(Level.Trial)
        public void setUp() {
            ring = RingRow.of(row).build();
        }
    }

    @State(Scope.Benchmark)
    public static class Floor {
        @Param({"100-v1", "100-v2.160", "100-v2.16", "2048-v1", "2048-v2.160", "2048-v2.16"})
        public String row;
        int[] table;

        @Setup(Level.Trial)
        public void setUp() {
            table = new Random(1).ints(RingRow.of(row).build().pointCount()).toArray();
        }
    }

    @State(Scope.Benchmark)
    public static class Tree {
        @Param({"100-v1", "100-v2.160", "100-v2.16", "2048-v1", "2048-v2.160", "2048-v2.16"})
        public String row;
        TreeMapKetama<String> tree;

        @Setup(Level.Trial)
        public void setUp() {
            tree = new TreeMapKetama<>(RingRow.of(row).build());
        }
    }

    @Benchmark
    public Node<String> ketama(Ring r, KeySet k, Cursor c) {
        return r.ring.locate(c.next(k));
    }

    @Benchmark
    public int floor(Floor f, KeySet k, Cursor c) {
        int h = Crc32.hash(c.next(k));
        int[] t = f.table;
        return t[(int) ((Integer.toUnsignedLong(h) * t.length) >>> 32)];
    }

    @Benchmark
    public Node<String> treeMap(Tree t, KeySet k, Cursor c) {
        return t.tree.locate(c.next(k));
    }
}
