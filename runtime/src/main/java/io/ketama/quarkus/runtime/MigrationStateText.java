package io.ketama.quarkus.runtime;

import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationState;

import java.time.Instant;

/**
 * The text form in which the cluster stores its {@link MigrationState}. A {@code String} value is
 * serialized by Hazelcast's own string serializer, so no member ever deserializes a Java object
 * to read the state, and {@code IMap.replace(key, old, new)} compares exactly what was read.
 *
 * <p>Form: {@code 1|generation|mode|v2SharePercent|shadow|changedAtEpochMillis|changedBy}; the
 * leading {@code 1} is the format version, {@code changedBy} is last so it may hold any text.
 */
final class MigrationStateText {

    private static final String FORMAT = "1";
    private static final int FIELDS = 7;

    private MigrationStateText() {
    }

    static String encode(MigrationState s) {
        MigrationSettings m = s.settings();
        return FORMAT + '|' + s.generation() + '|' + m.mode().label() + '|' + m.v2SharePercent() + '|' + m.shadow()
                + '|' + s.changedAt().toEpochMilli() + '|' + s.changedBy();
    }

    /**
     * @throws IllegalArgumentException saying what is wrong with {@code text}
     */
    static MigrationState decode(String text) {
        String[] f = text.split("\\|", FIELDS);
        if (f.length != FIELDS || !FORMAT.equals(f[0])) {
            throw new IllegalArgumentException("not a format-" + FORMAT + " migration state: '" + shorten(text) + "'");
        }
        try {
            long generation = Long.parseLong(f[1]);
            MigrationSettings.Mode mode = MigrationSettings.Mode.parse(f[2]);
            double share = Double.parseDouble(f[3]);
            if (!f[4].equals("true") && !f[4].equals("false")) {
                throw new IllegalArgumentException("shadow must be true or false, was '" + f[4] + "'");
            }
            Instant at = Instant.ofEpochMilli(Long.parseLong(f[5]));
            return new MigrationState(new MigrationSettings(mode, share, Boolean.parseBoolean(f[4])), generation, f[6], at);
        } catch (IllegalArgumentException e) { // NumberFormatException included
            throw new IllegalArgumentException("malformed migration state '" + shorten(text) + "': " + e.getMessage(), e);
        }
    }

    private static String shorten(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "…";
    }
}
