package io.ketama.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * CPU time of the benchmark threads per operation ({@code cpu.time.per.op}, ns): the time the
 * worker threads actually ran, divided by every operation of the iteration. On a shared machine
 * where other processes take the cores (load averages of 10+ on 2 cores were common while these
 * benchmarks ran), wall-clock time per operation mostly measures the scheduler; CPU time leaves
 * out the time a thread waited for a core, though not what the others do to the caches.
 */
public final class CpuTimeProfiler implements InternalProfiler {

    private static final String WORKER = "-jmh-worker-";
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private long before;

    @Override
    public String getDescription() {
        return "CPU time of the benchmark threads per operation";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        before = workerCpuNanos();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                       IterationResult result) {
        long cpu = workerCpuNanos() - before;
        long ops = result.getMetadata().getAllOps();
        double perOp = ops == 0 ? Double.NaN : (double) cpu / ops;
        return List.of(new ScalarResult("cpu.time.per.op", perOp, "ns/op", AggregationPolicy.AVG));
    }

    /** Summed CPU time of the JMH worker threads (they live for the whole run, so the difference is this iteration's). */
    private long workerCpuNanos() {
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().contains(WORKER)) {
                long ns = threads.getThreadCpuTime(t.getId());
                if (ns > 0) {
                    sum += ns;
                }
            }
        }
        return sum;
    }
}
