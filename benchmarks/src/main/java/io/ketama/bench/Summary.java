package io.ketama.bench;

import java.util.List;
import java.util.Locale;

/** Renders the results of one {@link RunAll} as the markdown tables of BENCHMARKS.md. */
final class Summary {

    private Summary() {
    }

    static String markdown(List<RunAll.Row> rows, List<MemoryReport.RingMemory> memory, String memoryReport, double seconds) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "# Benchmark summary%n%nJava %s (%s), %d CPUs, run took %.1f min. Figures are medians of the "
                        + "measurement iterations; ± is JMH's 99.9 %% error of the mean, a measure of the noise.%n%n",
                System.getProperty("java.version"), System.getProperty("java.vm.name"), Runtime.getRuntime().availableProcessors(),
                seconds / 60));

        sb.append("## Lookups (ns per lookup, 30-byte keys)\n\n");
        sb.append("CPU = CPU time of the benchmark thread per lookup (median); wall = wall-clock time per lookup (median ± JMH error). "
                + "Ratios use CPU time.\n\n");
        sb.append("| ring | ours CPU | floor CPU | ours / floor (target ≤ 1.5) | ours wall | floor wall | TreeMap ketama CPU | "
                + "spymemcached CPU | Rust 0.8.0 | ours / Rust (target ≤ 0.5) | ours B/op |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (RingRow r : RingRow.values()) {
            RunAll.Row ours = find(rows, "LookupBench.ketama", "row=" + r.id);
            RunAll.Row floor = find(rows, "LookupBench.floor", "row=" + r.id);
            RunAll.Row tree = find(rows, "LookupBench.treeMap", "row=" + r.id);
            RunAll.Row spy = find(rows, "PeerBench.spymemcached", "ring=" + spyRing(r));
            double vsFloor = ours == null || floor == null ? Double.NaN : ours.cpuMedian() / floor.cpuMedian();
            double vsRust = ours == null ? Double.NaN : ours.cpuMedian() / r.rustLookupNs;
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %.0f | %s | %s |%n", r.id, cpu(ours), cpu(floor),
                    verdict(vsFloor, 1.5), ns(ours), ns(floor), cpu(tree), cpu(spy), r.rustLookupNs, verdict(vsRust, 0.5),
                    ours == null ? "" : String.format(Locale.ROOT, "%.3f", ours.allocPerOp())));
        }
        sb.append("\nfloor = CRC-32 of the key + one read at a random index of an int[] as long as the ring; spymemcached rows use as many "
                + "points per node as ours (v2/160 rows: the same ring as v1).\n\n");

        sb.append("## Other baselines (ns per operation)\n\n| benchmark | params | CPU | wall |\n|---|---|---:|---:|\n");
        for (RunAll.Row row : rows) {
            if (row.benchmark().startsWith("HashBench") || row.benchmark().startsWith("PeerBench.jumpHash")) {
                sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s |%n", row.benchmark(), row.params(), cpu(row), ns(row)));
            }
        }

        sb.append("\n## Build time\n\n| ring | ours CPU (µs) | ours wall (µs) | Rust 0.8.0 (µs) | ours / Rust (target ≤ 1) |\n"
                + "|---|---:|---:|---:|---:|\n");
        for (RingRow r : RingRow.values()) {
            RunAll.Row b = find(rows, "BuildBench.build", "row=" + r.id);
            // the profiler reports ns per operation; the primary score is in µs
            double ratio = b == null ? Double.NaN : b.cpuMedian() / r.rustBuildNs;
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %,.0f | %s |%n", r.id,
                    b == null ? "n/a" : String.format(Locale.ROOT, "%,.0f", b.cpuMedian() / 1000),
                    b == null ? "n/a" : String.format(Locale.ROOT, "%,.0f ± %,.0f", b.median(), b.error()), r.rustBuildNs / 1000,
                    verdict(ratio, 1.0)));
        }

        sb.append("\n## Bytes per point (JOL, point storage with its index)\n\n| ring | points | ours (bytes) | ours per point | target | "
                + "Rust 0.8.0 (bytes) | Rust per point |\n|---|---:|---:|---:|---|---:|---:|\n");
        for (MemoryReport.RingMemory m : memory) {
            double target = m.points() >= 100_000 ? 4.5 : m.nodes() <= 256 ? 5.0 : 6.0;
            RingRow row = null;
            for (RingRow r : RingRow.values()) {
                if (r.id.equals(m.ring())) {
                    row = r;
                }
            }
            sb.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %.2f | ≤ %.1f %s | %s | %s |%n", m.ring(), m.points(), m.pointBytes(),
                    m.bytesPerPoint(), target, m.bytesPerPoint() <= target ? "met" : "**missed**",
                    row == null ? "" : String.format(Locale.ROOT, "%,d", row.rustBytes),
                    row == null ? "" : String.format(Locale.ROOT, "%.2f", (double) row.rustBytes / m.points())));
        }

        sb.append("\n## Feature sets: lookups on the 2048-node v2/16 ring (ns per lookup)\n\n"
                + "CPU ns per lookup (median).\n\n"
                + "| set | FeatureRings (default budget) | FeatureRings (walk only) | dedicated ring | B/op (FeatureRings) |\n|---|---:|---:|---:|---:|\n");
        for (var s : FeatureFixture.SETS) {
            String label = FeatureFixture.label(s);
            RunAll.Row shared = find(rows, "FeatureBench.featureRings", "set=" + label);
            RunAll.Row walk = find(rows, "FeatureBench.featureRingsWalkOnly", "set=" + label);
            RunAll.Row ded = find(rows, "FeatureBench.dedicatedRing", "set=" + label);
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", label, cpu(shared), cpu(walk), cpu(ded),
                    shared == null ? "" : String.format(Locale.ROOT, "%.3f", shared.allocPerOp())));
        }

        sb.append("\n## Throughput (lookups per µs, all threads, wall clock)\n\n"
                + "The CPU columns give the CPU time per lookup: equal with 1 and 2 threads means the threads do not slow each other "
                + "(no shared writes, no lock), so throughput scales with the cores actually free.\n\n"
                + "| ring | 1 thread | 2 threads | scaling | CPU ns/lookup, 1 thread | CPU ns/lookup, 2 threads |\n|---|---:|---:|---:|---:|---:|\n");
        for (RingRow r : RingRow.values()) {
            RunAll.Row one = find(rows, "ThroughputBench.oneThread", "row=" + r.id);
            RunAll.Row two = find(rows, "ThroughputBench.twoThreads", "row=" + r.id);
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |%n", r.id, ops(one), ops(two),
                    one == null || two == null ? "" : String.format(Locale.ROOT, "%.2f×", two.median() / one.median()), cpu(one), cpu(two)));
        }
        sb.append("\n").append(memoryReport.replaceFirst("# Memory", "## Memory"));
        return sb.toString();
    }

    private static String spyRing(RingRow r) {
        int reps = r.pointsPerWeight * r.weight();
        if (r.version == io.ketama.core.RingVersion.V2 && r.pointsPerWeight == 160) {
            reps = 160 * r.weight();
        }
        return r.nodeCount + "-" + reps;
    }

    static RunAll.Row find(List<RunAll.Row> rows, String benchmark, String param) {
        for (RunAll.Row r : rows) {
            if (r.benchmark().equals(benchmark) && r.params().contains(param + "}") || r.benchmark().equals(benchmark)
                    && r.params().contains(param + ";")) {
                return r;
            }
        }
        return null;
    }

    private static double ratio(RunAll.Row a, RunAll.Row b) {
        return a == null || b == null ? Double.NaN : a.median() / b.median();
    }

    private static String ns(RunAll.Row r) {
        return r == null ? "n/a" : String.format(Locale.ROOT, "%.1f ± %.1f", r.median(), r.error());
    }

    private static String cpu(RunAll.Row r) {
        return r == null || Double.isNaN(r.cpuMedian()) ? "n/a" : String.format(Locale.ROOT, "%.1f", r.cpuMedian());
    }

    private static String ops(RunAll.Row r) {
        return r == null ? "n/a" : String.format(Locale.ROOT, "%.1f ± %.1f", r.median(), r.error());
    }

    private static String verdict(double ratio, double target) {
        if (Double.isNaN(ratio)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.2f %s", ratio, ratio <= target ? "met" : "**missed**");
    }
}
