package io.ketama.quarkus;

import io.ketama.core.EnumLabels;

/** Where a member takes its migration settings from ({@code quarkus.ketama.migration.source}). */
public enum MigrationSource {
    /**
     * One state for the whole cluster, stored in the cluster and versioned by a generation. The
     * first member of a new cluster seeds it from its configuration; every later member adopts it
     * before it becomes ready, whatever its own configuration says; a change through
     * {@link RingSelector#updateMigration} reaches every member.
     */
    CLUSTER,
    /**
     * Each member runs with its own configuration only; a change through
     * {@link RingSelector#updateMigration} changes this member alone. For a cluster whose members
     * are rolled out one by one with new settings, at the cost of members disagreeing meanwhile.
     */
    MEMBER;

    /** {@code cluster} or {@code member}. */
    public String label() {
        return EnumLabels.label(this);
    }
}
