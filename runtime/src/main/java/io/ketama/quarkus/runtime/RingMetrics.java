package io.ketama.quarkus.runtime;

import io.ketama.core.RingVersion;
import io.ketama.quarkus.MigrationState;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;

import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What the {@link RingSelector} and the rings report as they work: selections, rebuilds, shadow
 * comparisons and excluded members. {@link MicrometerRingMetrics} records them as meters when the application has
 * Micrometer and {@code quarkus.ketama.metrics.enabled} is true; otherwise {@link #NONE} records
 * nothing, and no Micrometer class is ever loaded.
 */
interface RingMetrics {

    /** Counts nothing. */
    SelectionCounts NO_COUNTS = (version, index) -> { };

    /** Records nothing. */
    RingMetrics NONE = new RingMetrics() {
        @Override
        public void bind(Supplier<RingSnapshot> snapshot) {
        }

        @Override
        public SelectionCounts counts(RingSnapshot snapshot) {
            return NO_COUNTS;
        }

        @Override
        public void rebuilt(Duration took) {
        }

        @Override
        public void shadow(boolean disagreed) {
        }

        @Override
        public void memberExcluded() {
        }

        @Override
        public void bindMigration(String member, Supplier<MigrationState> applied, Supplier<MigrationSplit> split,
                                  LongSupplier rampSteps, LongSupplier rampHolds, LongSupplier rampRollbacks) {
        }
    };

    /** Called once at start-up; anything read later (gauges) is read through the suppliers. */
    void bind(Supplier<RingSnapshot> snapshot);

    /**
     * The selection counts of {@code snapshot}'s members, resolved once per rebuild so a selection
     * never looks anything up. Rebuilds run one at a time, so this is never called concurrently.
     */
    SelectionCounts counts(RingSnapshot snapshot);

    /** A rebuild finished after {@code took}. */
    void rebuilt(Duration took);

    /** A shadow selection was made; {@code disagreed}: the other ring chose another member. */
    void shadow(boolean disagreed);

    /** A member was left out of the rings (once per member). */
    void memberExcluded();

    /** This member changed the cluster's migration state; {@code origin} says who asked. */
    default void migrationChanged(MigrationState.Origin origin) {
    }

    /**
     * Called once at start-up: the cluster's migration state as this member applies it (its
     * generation), the routing it applies (its v2 share), both tagged with this member's address
     * {@code member} ({@code host:port}), and the counts of ramp steps, holds and rollbacks this
     * member drove.
     */
    void bindMigration(String member, Supplier<MigrationState> applied, Supplier<MigrationSplit> split, LongSupplier rampSteps,
                       LongSupplier rampHolds, LongSupplier rampRollbacks);

    /**
     * Called once at start-up: where a migration change stands ({@link MigrationQuorum}), read when
     * scraped: the members the cluster expects, those this member sees, those a change needs, and
     * whether a change would be refused now.
     */
    default void bindQuorum(Supplier<MigrationQuorum.Status> quorum) {
    }

    /**
     * Called once at start-up of a Hazelcast client ({@link ClientRings}): whether it is connected to
     * the cluster now (while not, its rings are the last it built).
     */
    default void bindClientConnected(java.util.function.BooleanSupplier connected) {
    }

    /** Counts selections on one snapshot's rings. */
    @FunctionalInterface
    interface SelectionCounts {

        /** One selection of node {@code index} (-1: no member qualified) on {@code version}. */
        void count(RingVersion version, int index);
    }
}
