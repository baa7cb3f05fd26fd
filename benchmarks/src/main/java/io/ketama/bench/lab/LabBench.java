package io.ketama.bench.lab;

import io.ketama.bench.Keys;
import io.ketama.bench.fleet.FleetRow;
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
 * The lookup layouts of {@link Layouts} on a fleet ring ({@link FleetRow}), beside the floor (CRC-32
 * of the key plus one random read of an {@code int[]} as long as the ring), the ring's own
 * {@code locate} and its index-level lookup, in one JMH run: compare CPU time per operation as
 * ratios to the floor of the same run.
 *
 * <pre>
 * java -XX:+UseCompactObjectHeaders -Xmx4g -cp benchmarks.jar org.openjdk.jmh.Main 'lab.LabBench' \
 *      -p row=100-v2.16,1000-v1,10000-v2.16 -prof io.ketama.bench.CpuTimeProfiler
 * </pre>
 * Every layout is checked against the ring on 2^16 random hashes (and the hashes of every point and
 * its neighbours) before anything is measured.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 300, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 6, time = 300, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
@State(Scope.Benchmark)
public class LabBench {
    @Param({"100-v2.16"})
    public String row;
    byte[][] keys;
    int i;
    KetamaRing<String> ring;
    int[] floorTable;
    Layouts.Current current;
    Layouts.Start4 start4;
    Layouts.Start8 start8;
    Layouts.Start4Binary start4Binary;
    Layouts.Swar16 swar16;
    Layouts.Coarse16 coarse16;

    @Setup(Level.Trial)
    public void setUp() {
        keys = Keys.bytes(30);
        ring = FleetRow.of(row).build();
        floorTable = new Random(1).ints(ring.pointCount()).toArray();
        int[] hashes = ring.points().hashes();
        int[] owners = owners(ring);
        current = new Layouts.Current(hashes, owners, ring.nodeCount());
        start4 = new Layouts.Start4(hashes, owners, ring.nodeCount());
        start8 = new Layouts.Start8(hashes, owners, ring.nodeCount());
        start4Binary = new Layouts.Start4Binary(hashes, owners, ring.nodeCount());
        coarse16 = new Layouts.Coarse16(hashes, owners, ring.nodeCount());
        swar16 = ring.nodeCount() <= 65_536 ? new Layouts.Swar16(hashes, owners, ring.nodeCount(), 4) : null;
        check(hashes);
        System.out.printf("%n%s: %,d points; bytes a point: current %.2f, start4 %.2f, start8 %.2f, swar16 %.2f, coarse16 %.2f%n", row, hashes.length,
                current.bytes() / (double) hashes.length, start4.bytes() / (double) hashes.length, start8.bytes() / (double) hashes.length,
                swar16 == null ? Double.NaN : swar16.bytes() / (double) hashes.length, coarse16.bytes() / (double) hashes.length);
    }

    private void check(int[] hashes) {
        Random rnd = new Random(29);
        for (int n = 0; n < (1 << 16) + 3 * hashes.length; n++) {
            int h = n < (1 << 16) ? rnd.nextInt() : hashes[(n - (1 << 16)) / 3] + ((n - (1 << 16)) % 3) - 1;
            int expected = ring.points().nodeIndexForHash(h);
            check("current", h, expected, current.node(h));
            check("start4", h, expected, start4.node(h));
            check("start8", h, expected, start8.node(h));
            check("start4Binary", h, expected, start4Binary.node(h));
            check("coarse16", h, expected, coarse16.node(h));
            if (swar16 != null) {
                check("swar16", h, expected, swar16.node(h));
            }
        }
    }

    private static void check(String layout, int hash, int expected, int actual) {
        if (expected != actual) {
            throw new IllegalStateException(layout + ": hash " + Integer.toUnsignedString(hash) + " -> node " + actual + ", the ring says " + expected);
        }
    }

    static String loadAverage() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    static int[] owners(KetamaRing<?> ring) {
        int[] o = new int[ring.pointCount()];
        for (int p = 0; p < o.length; p++) {
            o[p] = ring.points().nodeIndexAt(p);
        }
        return o;
    }

    byte[] next() {
        return keys[i++ & Keys.MASK];
    }

    @Benchmark
    public int floor() {
        int h = Crc32.hash(next());
        int[] t = floorTable;
        return t[(int) ((Integer.toUnsignedLong(h) * t.length) >>> 32)];
    }

    @Benchmark
    public int crcOnly() {
        return Crc32.hash(next());
    }

    @Benchmark
    public Node<String> locate() {
        return ring.locate(next());
    }

    @Benchmark
    public int nodeIndex() {
        return ring.points().nodeIndexForHash(Crc32.hash(next()));
    }

    @Benchmark
    public int labCurrent() {
        return current.node(Crc32.hash(next()));
    }

    @Benchmark
    public int labIndexOnly() {
        return current.indexOnly(Crc32.hash(next()));
    }

    @Benchmark
    public int labEstimateOne() {
        return current.estimateOne(Crc32.hash(next()));
    }

    @Benchmark
    public int labStart4() {
        return start4.node(Crc32.hash(next()));
    }

    @Benchmark
    public int labStart8() {
        return start8.node(Crc32.hash(next()));
    }

    @Benchmark
    public int labStart4Binary() {
        return start4Binary.node(Crc32.hash(next()));
    }

    @Benchmark
    public int labCoarse16() {
        return coarse16.node(Crc32.hash(next()));
    }

    @Benchmark
    public int labSwar16() {
        return swar16 == null ? -1 : swar16.node(Crc32.hash(next()));
    }
}
