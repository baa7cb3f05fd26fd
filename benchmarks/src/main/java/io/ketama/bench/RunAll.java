package io.ketama.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

/**
 * Runs every benchmark of the module in one go and writes, into the directory given as the first
 * argument: one JMH JSON file per group, {@code results.csv} (every benchmark: mean, error, median,
 * min, allocation per operation), {@code memory.md}/{@code memory.csv} (JOL) and
 * {@code summary.md} (the comparison table against pingora-ketama 0.8.0).
 *
 * <p>The machines are shared and noisy, so each ring's lookups run back to back with their
 * baselines (floor, TreeMap), every benchmark also reports the CPU time its threads used per
 * operation ({@link CpuTimeProfiler}), and comparisons use <b>medians</b> of the measurement
 * iterations, which a burst of load from another process moves less than the mean.
 *
 * <p>{@code -Dbench.quick=true} runs one short iteration of everything, to check the pipeline.
 */
public final class RunAll {

    private static final boolean QUICK = Boolean.getBoolean("bench.quick");
    private static final String[] ROWS = {"100-v1", "100-v2.160", "100-v2.16", "2048-v1", "2048-v2.160", "2048-v2.16"};

    /** One benchmark result, flattened. */
    record Row(String group, String benchmark, String params, String mode, String unit, double mean, double error,
               double median, double min, double max, double allocPerOp, double cpuMedian, double cpuMin) {
    }

    private final Path dir;
    private final List<Row> rows = new ArrayList<>();

    private RunAll(Path dir) {
        this.dir = dir;
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "benchmarks/results");
        Files.createDirectories(dir);
        RunAll run = new RunAll(dir);
        long t0 = System.nanoTime();
        for (String row : ROWS) {
            run.group("lookup-" + row, "LookupBench\\.(floor|ketama|treeMap)$", Map.of("row", row));
        }
        run.group("hash", "HashBench\\.", Map.of());
        run.group("peers", "PeerBench\\.", Map.of());
        run.group("build", "BuildBench\\.", Map.of());
        run.group("features", "FeatureBench\\.", Map.of());
        run.group("throughput", "ThroughputBench\\.", Map.of());
        run.writeCsv();
        String memory = MemoryReport.report();
        Files.writeString(dir.resolve("memory.md"), memory);
        Files.writeString(dir.resolve("memory.csv"), MemoryReport.csv(MemoryReport.lastRings()));
        Files.writeString(dir.resolve("summary.md"), Summary.markdown(run.rows, MemoryReport.lastRings(), memory,
                (System.nanoTime() - t0) / 1e9));
        System.out.println(Files.readString(dir.resolve("summary.md")));
    }

    private void group(String name, String include, Map<String, String> params) throws RunnerException {
        ChainedOptionsBuilder o = new OptionsBuilder()
                .include(include)
                .forks(1)
                .addProfiler(GCProfiler.class)
                .addProfiler(CpuTimeProfiler.class)
                .resultFormat(ResultFormatType.JSON)
                .result(dir.resolve("jmh-" + name + ".json").toString());
        params.forEach(o::param);
        if (QUICK) {
            o.warmupIterations(1).warmupTime(TimeValue.milliseconds(100))
                    .measurementIterations(2).measurementTime(TimeValue.milliseconds(100));
        }
        Collection<RunResult> results = new Runner(o.build()).run();
        for (RunResult r : results) {
            rows.add(flatten(name, r));
        }
    }

    private static Row flatten(String group, RunResult r) {
        BenchmarkParams p = r.getParams();
        Result<?> primary = r.getPrimaryResult();
        Statistics s = primary.getStatistics();
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
        Map<String, String> ps = new LinkedHashMap<>();
        for (String k : p.getParamsKeys()) {
            ps.put(k, p.getParam(k));
        }
        String bench = p.getBenchmark().substring(p.getBenchmark().lastIndexOf('.', p.getBenchmark().lastIndexOf('.') - 1) + 1);
        if (p.getThreads() > 1) {
            ps.put("threads", Integer.toString(p.getThreads()));
        }
        return new Row(group, bench, ps.toString().replace(", ", ";"), p.getMode().shortLabel(), primary.getScoreUnit(),
                s.getMean(), s.getN() > 1 ? s.getMeanErrorAt(0.999) : Double.NaN, s.getPercentile(50), s.getMin(), s.getMax(), alloc,
                cpuMedian, cpuMin);
    }

    private void writeCsv() throws IOException {
        StringBuilder sb = new StringBuilder("group,benchmark,params,mode,unit,mean,error_99.9,median,min,max,alloc_bytes_per_op,"
                + "cpu_ns_per_op_median,cpu_ns_per_op_min\n");
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "%s,%s,\"%s\",%s,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f%n", r.group(), r.benchmark(),
                    r.params(), r.mode(), r.unit(), r.mean(), r.error(), r.median(), r.min(), r.max(), r.allocPerOp(),
                    r.cpuMedian(), r.cpuMin()));
        }
        Files.writeString(dir.resolve("results.csv"), sb.toString());
    }
}
