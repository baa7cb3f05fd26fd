package io.ketama.quarkus.runtime;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.MigrationSettings;

import java.util.Objects;

/**
 * The migration a member's configuration asks for ({@code quarkus.ketama.migration.mode},
 * {@code v2-share}, {@code shadow}, {@code revision}), as the member publishes it in its
 * {@link MemberAttributes#CONFIGURED_MIGRATION} attribute and as the cluster records the one it
 * last adopted ({@link AdoptedConfiguration}).
 *
 * @param settings the configured settings
 * @param revision {@code quarkus.ketama.migration.revision}, or 0 when unset
 */
record ConfiguredMigration(MigrationSettings settings, long revision) {

    ConfiguredMigration {
        Objects.requireNonNull(settings, "settings");
        if (revision < 0) {
            throw new IllegalArgumentException("revision must be >= 0 (0: unset), was " + revision);
        }
    }

    /** {@code mode|v2SharePercent|shadow|revision}. */
    String encode() {
        return settings.mode().label() + '|' + settings.v2SharePercent() + '|' + settings.shadow() + '|' + revision;
    }

    /** Publishes this as the {@link MemberAttributes#CONFIGURED_MIGRATION} attribute of the member {@code config} makes. */
    void publishOn(Config config) {
        Objects.requireNonNull(config, "config").getMemberAttributeConfig()
                .setAttribute(MemberAttributes.CONFIGURED_MIGRATION, encode());
    }

    /** The migration {@code member} publishes its configuration asks for, or empty text when it publishes none. */
    static String publishedBy(Member member) {
        String text = member.getAttribute(MemberAttributes.CONFIGURED_MIGRATION);
        return text == null ? "" : text;
    }

    /**
     * @throws IllegalArgumentException saying what is wrong with {@code text}
     */
    static ConfiguredMigration decode(String text) {
        String[] f = text.split("\\|", -1);
        if (f.length != 4 || !(f[2].equals("true") || f[2].equals("false"))) {
            throw new IllegalArgumentException("not a configured migration (mode|v2SharePercent|shadow|revision): '" + text + "'");
        }
        try {
            return new ConfiguredMigration(new MigrationSettings(MigrationSettings.Mode.parse(f[0]), Double.parseDouble(f[1]),
                    Boolean.parseBoolean(f[2])), Long.parseLong(f[3]));
        } catch (IllegalArgumentException e) { // NumberFormatException included
            throw new IllegalArgumentException("malformed configured migration '" + text + "': " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return settings + (revision == 0 ? "" : " (revision " + revision + ")");
    }
}
