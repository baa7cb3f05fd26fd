package io.ketama.quarkus;

import io.ketama.core.EnumLabels;

/**
 * Where a member stands in its life as a ring member, as it tells the others through the cluster
 * (a Hazelcast member attribute cannot change after start, so this lives in a map entry per
 * member: {@link RingSelector#servingStates()}).
 */
public enum ServingState {
    /** Started, not yet ready to serve: a gated member is not on the rings yet. */
    STARTING,
    /** Ready to serve: on the rings. */
    SERVING,
    /** Stopping gracefully: off the rings, still serving what was already sent to it. */
    DRAINING;

    /** {@code starting}, {@code serving} or {@code draining}. */
    public String label() {
        return EnumLabels.label(this);
    }
}
