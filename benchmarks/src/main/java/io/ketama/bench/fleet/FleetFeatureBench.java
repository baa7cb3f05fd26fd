package io.ketama.bench.fleet;

import io.ketama.core.FeatureRings;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import java.util.List;
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
 * Constrained lookups on a tagged fleet ring ({@link FleetFeatures}) with 1, 8 or 64 feature sets in
 * use: lookup {@code i} requires set {@code i mod sets}, through {@link FeatureRings} with its
 * default budget (the sets it materialises, the others walked), beside an unconstrained lookup of
 * the same ring in the same fork.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Measurement(iterations = 8, time = 500, timeUnit = TimeUnit.MILLISECONDS)
@Fork(1)
public class FleetFeatureBench {

    @State(Scope.Benchmark)
    public static class Rings {
        @Param({"1000-v2.16"})
        public String row;
        @Param({"1", "8", "64"})
        public int sets;
        KetamaRing<String> ring;
        FeatureRings<String> features;
        Set<String>[] used;

        @Setup(Level.Trial)
        @SuppressWarnings("unchecked")
        public void setUp() {
            ring = FleetFeatures.ring(FleetRow.of(row));
            features = FeatureRings.of(ring);
            List<Set<String>> s = FleetFeatures.sets(sets);
            used = s.toArray(new Set[0]);
            for (Set<String> set : s) {
                features.locate("warm", set);
            }
        }
    }

    @State(Scope.Thread)
    public static class Cursor {
        int i;
    }

    @Benchmark
    public Node<String> constrained(Rings r, FleetLookupBench.KeySet k, Cursor c) {
        int i = c.i++;
        return r.features.locate(k.keys[i & io.ketama.bench.Keys.MASK], r.used[i % r.used.length]);
    }

    @Benchmark
    public Node<String> unconstrained(Rings r, FleetLookupBench.KeySet k, Cursor c) {
        return r.ring.locate(k.keys[c.i++ & io.ketama.bench.Keys.MASK]);
    }
}
