package io.ketama.bench.fleet;

import io.ketama.bench.CpuTimeProfiler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the fleet curves: per ring row its lookups and failover walks back to back with their
 * floor (and the TreeMap peer where its 48 bytes a point fit the heap), jump hash and spymemcached
 * per node count, builds, constrained lookups with 1/8/64 feature sets; then the JOL report
 * ({@link FleetMemory}). Writes {@code fleet.csv} (one line per benchmark: CPU ns per operation,
 * median and min of the iterations, wall-clock median, bytes allocated per operation) and the JMH
 * JSON of each group into the directory given.
 *
 * <pre>
 * java -XX:+UseCompactObjectHeaders -Xms4g -Xmx4g -Djdk.attach.allowAttachSelf=true -cp benchmarks/target/benchmarks.jar \
 *      io.ketama.bench.fleet.FleetRun /tmp/fleet [lookup|build|features|memory ...]
 * </pre>
 */
public final class FleetRun {

    /** The TreeMap peer is run on rings of at most this many points (48 bytes each on the heap). */
    static final long TREE_POINT_LIMIT = 10_000_000;
    private static final boolean QUICK = Boolean.getBoolean("bench.quick");

    record Line(String group, String benchmark, String params, double cpuMedian, double cpuMin, double wallMedian, double alloc,
                String unit) {
    }

    private final Path dir;
    private final List<Line> lines = new ArrayList<>();

    private FleetRun(Path dir) {
        this.dir = dir;
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "benchmarks/results/fleet");
        Files.createDirectories(dir);
        List<String> parts = args.length > 1 ? List.of(args).subList(1, args.length) : List.of("lookup", "build", "features", "memory");
        FleetRun run = new FleetRun(dir);
        if (parts.contains("lookup")) {
            for (String row : FleetRow.all()) {
                FleetRow r = FleetRow.of(row);
                long points = (long) (5.5 * r.pointsPerWeight() * r.nodes());
                String include = points <= TREE_POINT_LIMIT
                        ? "FleetLookupBench\\.(floor|ketama|failover|treeMap|treeMapFailover)$" : "FleetLookupBench\\.(floor|ketama|failover)$";
                run.group("lookup-" + row, include, Map.of("row", row));
            }
            for (int n : FleetRow.SIZES) {
                run.group("peers-" + n, "FleetLookupBench\\.(jumpHash|spymemcached)$", Map.of("buckets", "" + n, "nodes", "" + n));
            }
        }
        if (parts.contains("peers65536")) {
            // spymemcached's locator at 65,536 nodes (10.5 M TreeMap entries, 4 GB heap) did not finish its first warm-up
            // iteration under a load average of 20-30 in the run of record: jump hash alone there
            run.group("peers-65536", "FleetLookupBench\\.jumpHash$", Map.of("buckets", "65536"));
        }
        if (parts.contains("build")) {
            for (String row : FleetRow.all()) {
                run.group("build-" + row, "FleetBuildBench\\.build$", Map.of("row", row));
            }
            for (int n : FleetRow.SIZES) {
                run.group("build-spy-" + n, "FleetBuildBench\\.spymemcached$", Map.of("nodes", "" + n));
            }
        }
        if (parts.contains("features")) {
            for (int n : FleetRow.SIZES) {
                run.group("features-" + n, "FleetFeatureBench\\.", Map.of("row", n + "-v2.16"));
            }
        }
        run.writeCsv();
        if (parts.contains("memory")) {
            FleetMemory.main(new String[] {dir.toString()});
        }
    }

    private void group(String name, String include, Map<String, String> params) throws RunnerException, IOException {
        ChainedOptionsBuilder o = new OptionsBuilder()
                .include(include)
                .forks(1)
                .addProfiler(GCProfiler.class)
                .addProfiler(CpuTimeProfiler.class)
                .resultFormat(ResultFormatType.JSON)
                .result(dir.resolve("jmh-" + name + ".json").toString());
        params.forEach(o::param);
        if (!QUICK && name.startsWith("build")) {
            o.warmupIterations(2).measurementIterations(4);
        }
        if (!QUICK && !name.startsWith("build")) {
            // 3 + 6 iterations of 0.4 s: a stable median within a run that measures 15 rings beside their peers
            o.warmupIterations(3).warmupTime(TimeValue.milliseconds(400)).measurementIterations(6).measurementTime(TimeValue.milliseconds(400));
        }
        if (QUICK) {
            o.warmupIterations(1).warmupTime(TimeValue.milliseconds(100))
                    .measurementIterations(2).measurementTime(TimeValue.milliseconds(100));
        }
        Collection<RunResult> results = new Runner(o.build()).run();
        for (RunResult r : results) {
            lines.add(flatten(name, r));
        }
        writeCsv(); // after every group: a run cut short keeps what it measured
    }

    @SuppressWarnings("rawtypes")
    private static Line flatten(String group, RunResult r) {
        var p = r.getParams();
        double alloc = Double.NaN;
        double cpuMedian = Double.NaN;
        double cpuMin = Double.NaN;
        for (Map.Entry<String, Result> e : r.getSecondaryResults().entrySet()) {
            if (e.getKey().endsWith("gc.alloc.rate.norm")) {
                alloc = e.getValue().getScore();
            }
            if (e.getKey().endsWith("cpu.time.per.op")) {
                cpuMedian = e.getValue().getStatistics().getPercentile(50);
                cpuMin = e.getValue().getStatistics().getMin();
            }
        }
        StringBuilder ps = new StringBuilder();
        for (String k : p.getParamsKeys()) {
            ps.append(ps.length() == 0 ? "" : ";").append(k).append('=').append(p.getParam(k));
        }
        String bench = p.getBenchmark().substring(p.getBenchmark().lastIndexOf('.') + 1);
        return new Line(group, bench, ps.toString(), cpuMedian, cpuMin, r.getPrimaryResult().getStatistics().getPercentile(50), alloc,
                r.getPrimaryResult().getScoreUnit());
    }

    private void writeCsv() throws IOException {
        StringBuilder sb = new StringBuilder("group,benchmark,params,unit,cpu_ns_per_op_median,cpu_ns_per_op_min,wall_median,alloc_bytes_per_op\n");
        for (Line l : lines) {
            sb.append(String.format(Locale.ROOT, "%s,%s,%s,%s,%.3f,%.3f,%.3f,%.4f%n", l.group(), l.benchmark(), l.params(), l.unit(),
                    l.cpuMedian(), l.cpuMin(), l.wallMedian(), l.alloc()));
        }
        Files.writeString(dir.resolve("fleet.csv"), sb.toString());
    }
}
