package io.ketama.bench;

import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
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
 * table). A build runs its loops few times per call, so the JIT needs a long warm-up (6 s) before
 * the compiled code is measured.
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
    }

    @Benchmark
    public KetamaRing<String> build() {
        return KetamaRing.build(ringRow.version, ringRow.pointsPerWeight, nodes);
    }
}
