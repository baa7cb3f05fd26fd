package io.ketama.bench.fleet;

import io.ketama.core.FeatureRings;
import io.ketama.core.HashIdentity;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.RingAnalysis;
import io.ketama.core.RingVersion;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where the CPU time of the extension's rebuild goes, part by part: the core work of
 * {@code RingBuilder.build} on the members of {@code RebuildAtScaleBench} (the same addresses,
 * weights 1–10 and 8 tags each with probability 1/2 from the same seed, so the same 909,050 v1 points
 * at 1,000 members), without Hazelcast: the v1 ring (160 points per weight), the v2 ring (16, from
 * v1's nodes), both rings' balance statistics ({@link RingAnalysis}), both {@link FeatureRings}, and
 * their preparation for the 8 feature sets in use. CPU time of this thread per part; the medians and
 * minima of the second half of the rounds (the first half compiles).
 *
 * <pre>
 * java -XX:+UseCompactObjectHeaders -Xmx2g -cp benchmarks.jar io.ketama.bench.fleet.RebuildParts 1000 60
 * </pre>
 */
public final class RebuildParts {

    /** The feature sets of RebuildAtScaleBench. */
    static final List<Set<String>> SETS = List.of(Set.of("t0"), Set.of("t1"), Set.of("t0", "t1"), Set.of("t2", "t3"),
            Set.of("t4", "t5"), Set.of("t0", "t2", "t4"), Set.of("t1", "t3", "t5"), Set.of("t2", "t6", "t7"));
    private static final String[] PARTS = {"v1 ring", "v2 ring", "balance statistics (both)", "FeatureRings.of (both)",
        "prepare 8 sets (both)", "total", "process CPU (every thread: GC, JIT)"};

    private RebuildParts() {
    }

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        List<Node<String>> nodes = members(count);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[][] t = new long[PARTS.length][rounds];
        String shape = "";
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long gcCount0 = 0;
        long gcMillis0 = 0;
        long process0 = 0;
        for (int r = 0; r < rounds; r++) {
            if (r == rounds / 2) {
                gcCount0 = gcCount();
                gcMillis0 = gcMillis();
                process0 = os.getProcessCpuTime();
            }
            long p0 = os.getProcessCpuTime();
            long c0 = mx.getCurrentThreadCpuTime();
            KetamaRing<String> v1 = KetamaRing.build(RingVersion.V1, nodes);
            long c1 = mx.getCurrentThreadCpuTime();
            KetamaRing<String> v2 = KetamaRing.build(RingVersion.V2, 16, v1.nodes());
            long c2 = mx.getCurrentThreadCpuTime();
            double cov = RingAnalysis.of(v1).coefficientOfVariation() + RingAnalysis.of(v2).coefficientOfVariation();
            long c3 = mx.getCurrentThreadCpuTime();
            FeatureRings<String> f1 = FeatureRings.of(v1);
            FeatureRings<String> f2 = FeatureRings.of(v2);
            long c4 = mx.getCurrentThreadCpuTime();
            f1.prepare(SETS);
            f2.prepare(SETS);
            long c5 = mx.getCurrentThreadCpuTime();
            long[] at = {c0, c1, c2, c3, c4, c5};
            for (int p = 0; p < at.length - 1; p++) {
                t[p][r] = at[p + 1] - at[p];
            }
            t[PARTS.length - 2][r] = c5 - c0;
            t[PARTS.length - 1][r] = os.getProcessCpuTime() - p0;
            shape = String.format(Locale.ROOT, "%,d members, v1 %,d points, v2 %,d points, rings materialised %d + %d, CoV sum %.4f",
                    count, v1.pointCount(), v2.pointCount(), f1.materialisedCount(), f2.materialisedCount(), cov);
        }
        StringBuilder sb = new StringBuilder(shape).append(String.format(Locale.ROOT, "; load average %s%n%n", loadAverage()));
        int measured = rounds - rounds / 2;
        sb.append(String.format(Locale.ROOT, "(process CPU is counted in ticks of the OS: its per-round median may read 0 or 10 ms; over the"
                + " measured rounds it averaged %.2f ms a rebuild; GC: %.1f collections and %.2f ms of pauses a rebuild)%n%n",
                (os.getProcessCpuTime() - process0) / 1e6 / measured, (gcCount() - gcCount0) / (double) measured,
                (gcMillis() - gcMillis0) / (double) measured));
        sb.append("| part | CPU ms median | min |\n|---|---:|---:|\n");
        for (int p = 0; p < PARTS.length; p++) {
            long[] x = Arrays.copyOfRange(t[p], rounds / 2, rounds);
            Arrays.sort(x);
            sb.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f |%n", PARTS[p], x[x.length / 2] / 1e6, x[0] / 1e6));
        }
        System.out.print(sb);
    }

    /** RebuildAtScaleBench's members: 10.a.b.c:5701, weights 1–10 and tags t0–t7 from {@code new Random(count)}. */
    static List<Node<String>> members(int count) {
        Random rnd = new Random(count);
        List<Node<String>> nodes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Set<String> tags = new TreeSet<>();
            for (int t = 0; t < 8; t++) {
                if (rnd.nextBoolean()) {
                    tags.add("t" + t);
                }
            }
            String address = "10." + (i >>> 16) + "." + ((i >>> 8) & 255) + "." + (i & 255) + ":5701";
            nodes.add(new Node<>(HashIdentity.nginx(address), 1 + rnd.nextInt(10), tags, address));
        }
        nodes.sort(Comparator.comparing(Node::identity)); // as RingBuilder orders the members
        return nodes;
    }

    private static long gcCount() {
        long n = 0;
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    private static long gcMillis() {
        long n = 0;
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionTime());
        }
        return n;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (Exception e) {
            return "unknown";
        }
    }
}
