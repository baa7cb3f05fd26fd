package io.ketama.quarkus;

import com.hazelcast.cluster.Member;
import io.ketama.core.FeatureRings;
import io.ketama.core.RingVersion;

/**
 * What one lookup reads, swapped in as a whole on every rebuild: the snapshot, the feature-ring
 * views of its two rings, and the selection counts of its members resolved by node index (node
 * indices are the same in both rings: {@link RingSnapshot#members()} order).
 */
final class RingState {

    final RingSnapshot snapshot;
    private final FeatureRings<Member> v1;
    private final FeatureRings<Member> v2;
    private final RingMetrics.SelectionCounts counts;

    RingState(RingSnapshot snapshot, RingMetrics.SelectionCounts counts) {
        this.snapshot = snapshot;
        this.v1 = FeatureRings.of(snapshot.ring(RingVersion.V1));
        this.v2 = FeatureRings.of(snapshot.ring(RingVersion.V2));
        this.counts = counts;
    }

    /** The ring of {@code version}, with feature-constrained lookups. */
    FeatureRings<Member> rings(RingVersion version) {
        return version == RingVersion.V1 ? v1 : v2;
    }

    /** Counts one selection of node {@code index} (-1: none) on {@code version}. */
    void count(RingVersion version, int index) {
        counts.count(version, index);
    }
}
