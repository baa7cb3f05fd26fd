package io.ketama.bench;

import io.ketama.core.FeatureRings;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.RingVersion;
import java.util.Set;
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
 * Constrained lookups on the 2048-node v2/16 ring with 4 tags ({@link FeatureFixture}), per
 * feature set: {@link FeatureRings} with its default budget (walked or materialised, as it
 * decides), {@link FeatureRings} with a zero budget (always walked), and a dedicated ring built
 * from the qualifying nodes (what one-ring-per-combination costs in time).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 6, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class FeatureBench {

    @State(Scope.Benchmark)
    public static class Rings {
        @Param({"ssd", "eu", "pci", "gpu", "ssd+eu", "ssd+pci", "eu+gpu", "ssd+eu+pci"})
        public String set;
        Set<String> required;
        FeatureRings<String> shared;
        FeatureRings<String> walked;
        KetamaRing<String> dedicated;

        @Setup(Level.Trial)
        public void setUp() {
            KetamaRing<String> ring = FeatureFixture.ring(RingVersion.V2, 16);
            required = FeatureFixture.parse(set);
            shared = FeatureRings.of(ring);
            // every set used once first, as a service would: the budget decides what stays materialised
            for (Set<String> s : FeatureFixture.SETS) {
                shared.locate("warm", s);
            }
            walked = FeatureRings.of(ring, 0);
            dedicated = FeatureFixture.dedicated(ring, required);
        }
    }

    @Benchmark
    public Node<String> featureRings(Rings r, LookupBench.KeySet k, LookupBench.Cursor c) {
        return r.shared.locate(c.next(k), r.required);
    }

    @Benchmark
    public Node<String> featureRingsWalkOnly(Rings r, LookupBench.KeySet k, LookupBench.Cursor c) {
        return r.walked.locate(c.next(k), r.required);
    }

    @Benchmark
    public Node<String> dedicatedRing(Rings r, LookupBench.KeySet k, LookupBench.Cursor c) {
        return r.dedicated.locate(c.next(k));
    }
}
