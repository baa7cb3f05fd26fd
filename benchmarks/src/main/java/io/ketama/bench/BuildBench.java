package io.ketama.bench;

import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.RingVersion;
import java.util.List;
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
 * Time to build each ring of the table from its node list (point generation, sort, collisions,
 * table), compiled: the set-up first builds a small ring 20,000 times so that {@code build} and
 * its callees are compiled by C2, then 6 s of warm-up on the ring measured. Without that, the
 * first builds in a fresh JVM run interpreted and C1 code, 3-10× slower (JMH's warm-up lines in
 * run.log show it).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 12, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 10, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
@State(Scope.Benchmark)
public class BuildBench {

    @Param({"100-v1", "100-v2.160", "100-v2.16", "2048-v1", "2048-v2.160", "2048-v2.16"})
    public String row;
    private RingRow ringRow;
    private List<Node<String>> nodes;

    @Setup(Level.Trial)
    public void setUp() {
        ringRow = RingRow.of(row);
        nodes = ringRow.nodes();
        // JIT warm-up: a build calls its loops once, so build() itself reaches the optimising
        // compiler only after thousands of calls, which a large ring's warm-up iterations never
        // make. Small rings of both versions first, as a process that has built rings before.
        List<Node<String>> few = RingRow.randomNodes(3, 1, 3);
        for (int i = 0; i < 20_000; i++) {
            KetamaRing.build(i % 2 == 0 ? RingVersion.V1 : RingVersion.V2, 16, few);
        }
    }

    @Benchmark
    public KetamaRing<String> build() {
        return KetamaRing.build(ringRow.version, ringRow.pointsPerWeight, nodes);
    }
}
