package io.ketama.bench.fleet;

import com.google.common.hash.Hashing;
import io.ketama.bench.Keys;
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
 * Lookups and failover walks on the fleet rings ({@link FleetRow}), each beside the baselines sized
 * to the same ring, one operation = one lookup of the next of 2^18 precomputed 30-byte keys:
 * <ul>
 *   <li>{@code floor}: CRC-32 of the key plus one read at a random index of an {@code int[]} with as
 *       many elements as the ring has points: what any ring lookup must at least pay;</li>
 *   <li>{@code ketama}: {@code KetamaRing.locate(byte[])};</li>
 *   <li>{@code failover}: the owner and the next 2 distinct nodes,
 *       {@code ring.points().candidateIndices(key, 0, 30, int[3])} (allocation-free);</li>
 *   <li>{@code treeMap} / {@code treeMapFailover}: a {@code TreeMap<Long, payload>} holding the same
 *       points, {@code ceilingEntry} and a walk of its entries for 3 distinct payloads;</li>
 *   <li>{@code jumpHash}: Guava's jump consistent hash of the key's CRC-32 into {@code nodes}
 *       buckets (no weights, no failover order: a yardstick of a ring-less lookup).</li>
 * </ul>
 * The TreeMap peer holds 48 bytes per point; run it only on rows that fit the heap (FleetRun does).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 8, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class FleetLookupBench {

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
        final int[] out = new int[3];
        final String[] names = new String[3];

        byte[] next(KeySet k) {
            return k.keys[i++ & Keys.MASK];
        }
    }

    @State(Scope.Benchmark)
    public static class Ring {
        @Param({"100-v1"})
        public String row;
        KetamaRing<String> ring;

        @Setup(Level.Trial)
        public void setUp() {
            ring = FleetRow.of(row).build();
        }
    }

    @State(Scope.Benchmark)
    public static class Floor {
        @Param({"100-v1"})
        public String row;
        int[] table;

        @Setup(Level.Trial)
        public void setUp() {
            table = new Random(1).ints(FleetRow.of(row).build().pointCount()).toArray();
        }
    }

    @State(Scope.Benchmark)
    public static class Tree {
        @Param({"100-v1"})
        public String row;
        FleetTreeMap tree;

        @Setup(Level.Trial)
        public void setUp() {
            tree = new FleetTreeMap(FleetRow.of(row).build());
        }
    }

    @State(Scope.Benchmark)
    public static class Jump {
        @Param({"100"})
        public int buckets;
    }

    @Benchmark
    public int floor(Floor f, KeySet k, Cursor c) {
        int h = Crc32.hash(c.next(k));
        int[] t = f.table;
        return t[(int) ((Integer.toUnsignedLong(h) * t.length) >>> 32)];
    }

    @Benchmark
    public Node<String> ketama(Ring r, KeySet k, Cursor c) {
        return r.ring.locate(c.next(k));
    }

    @Benchmark
    public int failover(Ring r, KeySet k, Cursor c) {
        byte[] key = c.next(k);
        int[] out = c.out;
        int n = r.ring.points().candidateIndices(key, 0, key.length, out);
        return n + out[0] + out[n - 1];
    }

    @Benchmark
    public String treeMap(Tree t, KeySet k, Cursor c) {
        return t.tree.locate(c.next(k));
    }

    @Benchmark
    public int treeMapFailover(Tree t, KeySet k, Cursor c) {
        String[] out = c.names;
        int n = t.tree.candidates(c.next(k), out);
        return n + out[n - 1].length();
    }

    @State(Scope.Benchmark)
    public static class Spy {
        @Param({"100"})
        public int nodes;
        net.spy.memcached.KetamaNodeLocator locator;
        String[] keys;

        @Setup(Level.Trial)
        public void setUp() {
            locator = FleetSpy.input(nodes).build();
            keys = Keys.strings(30);
        }
    }

    /** spymemcached's weighted locator over the same nodes: MD5 of the {@code String} key, a {@code TreeMap} of about 160 points per node. */
    @Benchmark
    public Object spymemcached(Spy s, Cursor c) {
        return s.locator.getPrimary(s.keys[c.i++ & Keys.MASK]);
    }

    @Benchmark
    public int jumpHash(Jump j, KeySet k, Cursor c) {
        return Hashing.consistentHash(Integer.toUnsignedLong(Crc32.hash(c.next(k))), j.buckets);
    }
}
