package io.ketama.quarkus;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * The migration settings a cluster runs with, and which change made them. One value for the whole
 * cluster (see {@link RingSelector#migration()}): every change raises the generation by one, so two
 * members that report the same generation route every key through the same ring version.
 *
 * @param settings   mode, v2 share and shadow
 * @param generation 1 for the value a new cluster starts with (from the configuration of its first
 *                   member), one more for each change after it
 * @param changedBy  who made this value: {@code configuration of <member>}, or the admin caller's
 *                   address, or the ramp
 * @param changedAt  when it was made (the clock of the member that made it), in whole milliseconds
 */
public record MigrationState(MigrationSettings settings, long generation, String changedBy, Instant changedAt) {

    public MigrationState {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(changedBy, "changedBy");
        // milliseconds, as the cluster stores it: a state read back equals the one written
        changedAt = Objects.requireNonNull(changedAt, "changedAt").truncatedTo(ChronoUnit.MILLIS);
        if (generation < 1) {
            throw new IllegalArgumentException("generation must be >= 1, was " + generation);
        }
    }

    /** {@link #changedBy()} of a state made from a member's configuration starts so. */
    public static final String BY_CONFIGURATION = "configuration of ";
    /** {@link #changedBy()} of a state made through the admin plane starts so. */
    public static final String BY_ADMIN = "admin ";
    /** {@link #changedBy()} of a state made by a ramp starts so. */
    public static final String BY_RAMP = "ramp ";

    /** Where a state came from, read off {@link #changedBy()}. */
    public enum Origin {
        /** A member's configuration: the first member's of a new cluster, or a rollout's ({@code configuration of <member>}). */
        CONFIGURATION,
        /** {@code PUT /q/ketama/migration} ({@code admin <caller>}). */
        ADMIN,
        /** A migration ramp's step or rollback ({@code ramp …}). */
        RAMP,
        /** The application, through {@link RingSelector#updateMigration}. */
        APPLICATION;

        /** {@code configuration}, {@code admin}, {@code ramp} or {@code application}. */
        public String label() {
            return io.ketama.core.EnumLabels.label(this);
        }
    }

    /** Where this state came from. */
    public Origin origin() {
        if (changedBy.startsWith(BY_CONFIGURATION)) {
            return Origin.CONFIGURATION;
        } else if (changedBy.startsWith(BY_ADMIN)) {
            return Origin.ADMIN;
        } else if (changedBy.startsWith(BY_RAMP)) {
            return Origin.RAMP;
        }
        return Origin.APPLICATION;
    }

    @Override
    public String toString() {
        return settings + " (generation " + generation + ", by " + changedBy + " at " + changedAt + ")";
    }
}
