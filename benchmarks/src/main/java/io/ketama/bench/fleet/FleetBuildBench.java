package io.ketama.bench.fleet;

import io.ketama.bench.RingRow;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.spy.memcached.KetamaNodeLocator;
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
 * Time to build each fleet ring from its node list (points, sort, collisions, tables), compiled:
 * the set-up builds a small ring 20,000 times first so that {@code build} and its loops are C2
 * code before the first measured build (as BuildBench explains). A build of a 57.7 M-point ring
 * takes longer than an iteration, so those iterations hold one build each. {@code spymemcached}
 * builds spymemcached's weighted locator over the same nodes ({@link FleetSpy}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 4, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 6, time = 1, timeUnit = TimeUnit.SECONDS)
@Fork(1)
public class FleetBuildBench {

    @State(Scope.Benchmark)
    public static class Rows {
        @Param({"100-v1"})
        public String row;
        FleetRow fleetRow;
        List<Node<String>> nodes;

        @Setup(Level.Trial)
        public void setUp() {
            fleetRow = FleetRow.of(row);
            nodes = fleetRow.nodeList();
            warmUpCompiler();
        }
    }

    @State(Scope.Benchmark)
    public static class Spy {
        @Param({"100"})
        public int nodes;
        FleetSpy.Input input;

        @Setup(Level.Trial)
        public void setUp() {
            input = FleetSpy.input(nodes);
        }
    }

    static void warmUpCompiler() {
        List<Node<String>> small = RingRow.randomNodes(8, 2, 1);
        long sink = 0;
        for (int i = 0; i < 20_000; i++) {
            sink += KetamaRing.build(i % 2 == 0 ? io.ketama.core.RingVersion.V1 : io.ketama.core.RingVersion.V2, 16, small).pointCount();
        }
        if (sink == 42) {
            System.out.println(sink);
        }
    }

    @Benchmark
    public KetamaRing<String> build(Rows r) {
        return KetamaRing.build(r.fleetRow.version(), r.fleetRow.pointsPerWeight(), r.nodes);
    }

    @Benchmark
    public KetamaNodeLocator spymemcached(Spy s) {
        return s.input.build();
    }
}
