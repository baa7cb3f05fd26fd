package io.ketama.quarkus;

import io.ketama.core.EnumLabels;

import java.util.Objects;

/**
 * How this member splits keys between the v1 and the v2 ring. Configuration gives the start-up
 * value ({@code quarkus.ketama.migration.*}); {@link RingSelector#updateMigration} changes it at
 * run time under the same rules. The data-centre allowlist is configuration only.
 *
 * @param mode            which ring serves: all keys v1, all keys v2, or a share of keys v2
 * @param v2SharePercent  in {@link Mode#SPLIT}, the percentage of keys (0 to 100, decimals allowed)
 *                        the v2 ring serves; ignored in the other modes
 * @param shadow          also compute the other ring's owner of every key and count disagreements
 * @throws IllegalArgumentException when the share is not a number from 0 to 100; the message names
 *                                  the configuration key
 */
public record MigrationSettings(Mode mode, double v2SharePercent, boolean shadow) {

    /** Configuration key of {@link #mode()}. */
    public static final String MODE_KEY = "quarkus.ketama.migration.mode";
    /** Configuration key of {@link #v2SharePercent()}. */
    public static final String SHARE_KEY = "quarkus.ketama.migration.v2-share";

    /** The start-up default: everything on v1, no shadow. */
    public static final MigrationSettings DEFAULT = new MigrationSettings(Mode.V1, 0, false);

    public MigrationSettings {
        Objects.requireNonNull(mode, MODE_KEY + " must be set; allowed: " + Mode.ALLOWED);
        if (!(v2SharePercent >= 0 && v2SharePercent <= 100)) { // also rejects NaN
            throw new IllegalArgumentException(SHARE_KEY + " must be a percentage from 0 to 100 (decimals allowed), was "
                    + v2SharePercent);
        }
    }

    /** Which ring serves the keys. */
    public enum Mode {
        /** Every key on the v1 ring (nginx-compatible). */
        V1,
        /** Every key on the v2 ring. */
        V2,
        /** A sticky share of keys on v2 ({@link #v2SharePercent()}), in allowed data centres; the rest on v1. */
        SPLIT;

        static final String ALLOWED = EnumLabels.allowed(Mode.class);

        /** {@code v1}, {@code v2} or {@code split} ({@link EnumLabels}). */
        public String label() {
            return EnumLabels.label(this);
        }

        /**
         * Parses {@code v1}, {@code v2} or {@code split} (any case, surrounding blanks ignored).
         *
         * @throws IllegalArgumentException naming {@value #MODE_KEY} and the allowed values
         */
        public static Mode parse(String text) {
            return EnumLabels.parse(Mode.class, text, MODE_KEY);
        }
    }
}
