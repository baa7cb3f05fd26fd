package io.ketama.quarkus;

import com.hazelcast.cluster.Member;
import io.ketama.core.KetamaRing;
import io.ketama.core.RingVersion;
import io.micrometer.core.instrument.Counter;

/**
 * What one lookup reads, swapped in as a whole on every rebuild: the snapshot, its rings, and the
 * selection counters of its members pre-resolved by node index.
 */
final class RingState {

    final RingSnapshot snapshot;
    final FeatureFilter features;
    private final KetamaRing<Member> v1;
    private final KetamaRing<Member> v2;
    private final Counter[][] counters;
    private final KetamaMetrics metrics;

    RingState(RingSnapshot snapshot, Counter[][] counters, KetamaMetrics metrics) {
        this.snapshot = snapshot;
        this.features = new FeatureFilter(snapshot.members(), snapshot.knownFeatures());
        this.v1 = snapshot.ring(RingVersion.V1);
        this.v2 = snapshot.ring(RingVersion.V2);
        this.counters = counters;
        this.metrics = metrics;
    }

    KetamaRing<Member> ring(RingVersion version) {
        return version == RingVersion.V1 ? v1 : v2;
    }

    /** Counts one selection of node {@code index} (-1: none) on {@code version}. */
    void count(RingVersion version, int index) {
        (index < 0 ? metrics.unresolved(version) : counters[version.ordinal()][index]).increment();
    }
}
