package io.ketama.bench;

import io.ketama.core.Node;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Lookups per microsecond, all threads together, with 1 and 2 threads sharing one ring (each
 * thread walks the keys with its own cursor). Rings are immutable and lookups take no lock, so 2
 * threads should approach twice the throughput of 1 on 2 free cores.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 6, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class ThroughputBench {

    @Benchmark
    @Threads(1)
    public Node<String> oneThread(LookupBench.Ring r, LookupBench.KeySet k, LookupBench.Cursor c) {
        return r.ring.locate(c.next(k));
    }

    @Benchmark
    @Threads(2)
    public Node<String> twoThreads(LookupBench.Ring r, LookupBench.KeySet k, LookupBench.Cursor c) {
        return r.ring.locate(c.next(k));
    }
}
