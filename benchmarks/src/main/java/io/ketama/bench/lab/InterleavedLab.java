package io.ketama.bench.lab;

import io.ketama.bench.Keys;
import io.ketama.bench.fleet.FleetRow;
import io.ketama.core.Crc32;
import io.ketama.core.KetamaRing;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * {@link LabBench}'s layouts measured interleaved: each round runs every variant once over the same
 * 2^20 lookups (CPU time of this thread), so that a change of the machine's load during the run
 * touches every variant alike; reports, per variant, the median and the minimum over the rounds and
 * both as ratios to the floor's. A JMH run measures one benchmark after another, and on a machine
 * whose load moved between 10 and 30 within minutes its ratios moved by 2× between rows; here they
 * do not. Each loop is its own method, so every variant is compiled on its own (no megamorphic call
 * per lookup, which would add the same few ns to each).
 *
 * <pre>
 * java -XX:+UseCompactObjectHeaders -Xmx6g -cp benchmarks.jar io.ketama.bench.lab.InterleavedLab 15 100-v2.16 1000-v1 ...
 * </pre>
 */
public final class InterleavedLab {

    private static final int LOOKUPS = 1 << 20;
    private static final String[] NAMES = {"floor", "crcOnly", "indexOnly", "estimateOne", "current", "start4", "start4Binary", "start8",
        "swar16", "nodeIndex", "locate", "coarse16"};

    private InterleavedLab() {
    }

    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]);
        byte[][] keys = Keys.bytes(30);
        System.out.println("load average at start: " + LabBench.loadAverage());
        for (int a = 1; a < args.length; a++) {
            run(args[a], rounds, keys);
        }
        System.out.println("load average at end: " + LabBench.loadAverage());
    }

    private static void run(String row, int rounds, byte[][] keys) {
        LabBench b = new LabBench();
        b.row = row;
        b.setUp();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        double[][] ns = new double[NAMES.length][rounds];
        long sink = 0;
        for (int r = -2; r < rounds; r++) { // two rounds to compile
            for (int v = 0; v < NAMES.length; v++) {
                long c0 = mx.getCurrentThreadCpuTime();
                sink += loop(v, b, keys);
                if (r >= 0) {
                    ns[v][r] = (mx.getCurrentThreadCpuTime() - c0) / (double) LOOKUPS;
                }
            }
        }
        double floorMedian = median(ns[0]);
        double floorMin = min(ns[0]);
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%n%s (%,d points), CPU ns per lookup over %d interleaved rounds (sink %d)%n",
                row, b.ring.pointCount(), rounds, sink & 1));
        sb.append("| variant | median | × floor | min | × floor (min) |\n|---|---:|---:|---:|---:|\n");
        for (int v = 0; v < NAMES.length; v++) {
            if (v == 8 && b.swar16 == null) {
                continue;
            }
            sb.append(String.format(Locale.ROOT, "| %s | %.1f | %.2f | %.1f | %.2f |%n", NAMES[v], median(ns[v]), median(ns[v]) / floorMedian,
                    min(ns[v]), min(ns[v]) / floorMin));
        }
        System.out.print(sb);
    }

    private static long loop(int v, LabBench b, byte[][] keys) {
        return switch (v) {
            case 0 -> floor(b.floorTable, keys);
            case 1 -> crc(keys);
            case 2 -> indexOnly(b.current, keys);
            case 3 -> estimateOne(b.current, keys);
            case 4 -> current(b.current, keys);
            case 5 -> start4(b.start4, keys);
            case 6 -> start4Binary(b.start4Binary, keys);
            case 7 -> start8(b.start8, keys);
            case 8 -> b.swar16 == null ? 0 : swar16(b.swar16, keys);
            case 9 -> nodeIndex(b.ring, keys);
            case 10 -> locate(b.ring, keys);
            default -> coarse16(b.coarse16, keys);
        };
    }

    private static long floor(int[] t, byte[][] keys) {
        long s = 0;
        for (int i = 0; i < LOOKUPS; i++) {
            int h = Crc32.hash(keys[i & Keys.MASK]);
            s += t[(int) ((Integer.toUnsignedLong(h) * t.length) >>> 32)];
        }
        return s;
    }

    private static long crc(byte[][] keys) {
        long s = 0;
        for (int i = 0; i < LOOKUPS; i++) {
            s += Crc32.hash(keys[i & Keys.MASK]);
        }
        return s;
    }

    private static long indexOnly(Layouts.Current l, byte[][] keys) {
        long s = 0;
        for (int i = 0; i < LOOKUPS; i++) {
            s += l.indexOnly(Crc32.hash(keys[i & Keys.MASK]));
        }
        return s;
    }

    private static long estimateOne(Layouts.Current l, byte[][] keys) {
        long s = 0;
        for (int i = 0; i < LOOKUPS; i++) {
            s += l.estimateOne(Crc32.hash(keys[i & Keys.MASK]));
        }
        return s;
    }

    private static long current(Layouts.Current l, byte[][] keys) {
        long s = 0;
        for (int i = 0; i < LOOKUPS; i++) {
            s += l.node(Crc32.hash(keys[i & Keys.MASK]));
        }
        return s;
    }

    private static long start4(Layouts.Start4 l, byte[][] keys) {
        long s = 0;
        for (int i = 0; i < LOOKUPS; i++) {
            s += l.node(Crc32.hash(keys[i & Keys.MASK]));
        }
        return s;
    }

    private static long start4Binary(Layouts.Start4Binary l, byte[][] keys) {
        long s = 0;
        for (int i = 0; i < LOOKUPS; i++) {
            s += l.node(Crc32.hash(keys[i & Keys.MASK]));
        }
        return s;
    }

    private static long start8(Layouts.Start8 l, byte[][] keys) {
        long s = 0;
        for (int i = 0; i < LOOKUPS; i++) {
            s += l.node(Crc32.hash(keys[i & Keys.MASK]));
        }
        return s;
    }

    private static long coarse16(Layouts.Coarse16 l, byte[][] keys) {
        long s = 0;
        for (int i = 0; i < LOOKUPS; i++) {
            s += l.node(Crc32.hash(keys[i & Keys.MASK]));
        }
        return s;
    }

    private static long swar16(Layouts.Swar16 l, byte[][] keys) {
        long s = 0;
        for (int i = 0; i < LOOKUPS; i++) {
            s += l.node(Crc32.hash(keys[i & Keys.MASK]));
        }
        return s;
    }

    private static long nodeIndex(KetamaRing<String> ring, byte[][] keys) {
        long s = 0;
        for (int i = 0; i < LOOKUPS; i++) {
            s += ring.points().nodeIndexForHash(Crc32.hash(keys[i & Keys.MASK]));
        }
        return s;
    }

    private static long locate(KetamaRing<String> ring, byte[][] keys) {
        long s = 0;
        for (int i = 0; i < LOOKUPS; i++) {
            s += ring.locate(keys[i & Keys.MASK]) != null ? 1 : 0;
        }
        return s;
    }

    private static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c[c.length / 2];
    }

    private static double min(double[] v) {
        return Arrays.stream(v).min().orElse(Double.NaN);
    }
}
