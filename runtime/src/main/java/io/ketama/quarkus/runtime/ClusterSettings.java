package io.ketama.quarkus.runtime;

import io.ketama.quarkus.KetamaConfig;
import io.ketama.quarkus.MigrationSource;

import io.quarkus.runtime.configuration.ConfigurationException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The validated cluster-control keys: where the migration state comes from, the admin token, and
 * the drain. {@link #from} reports every invalid key at once, each with what is allowed.
 *
 * @param migrationSource   {@code quarkus.ketama.migration.source}
 * @param adminToken        {@code quarkus.ketama.admin.token}; empty: the admin plane is read-only
 * @param drainTimeout      {@code quarkus.ketama.drain.timeout}
 * @param drainQuietPeriod  {@code quarkus.ketama.drain.quiet-period}
 * @param memberAllowlist   {@code quarkus.ketama.hazelcast.member-allowlist}, or null for every member
 * @param minMembers        {@code quarkus.ketama.migration.min-members}; empty: the learned quorum
 * @param forgetFailedAfter {@code quarkus.ketama.migration.forget-failed-after}
 * @param migrationRevision {@code quarkus.ketama.migration.revision}, or 0 when unset
 */
record ClusterSettings(MigrationSource migrationSource, Optional<String> adminToken, Duration drainTimeout,
                       Duration drainQuietPeriod, MemberAllowlist memberAllowlist, OptionalInt minMembers, Duration forgetFailedAfter,
                       long migrationRevision) {

    static final int MIN_TOKEN_LENGTH = 16;
    static final Duration MAX_DRAIN = Duration.ofMinutes(10);
    static final Duration MIN_FORGET = Duration.ofMinutes(1);
    static final Duration MAX_FORGET = Duration.ofDays(30);

    /**
     * @throws ConfigurationException listing every invalid {@code quarkus.ketama.*} key, this group's and the
     *                                others' ({@link SettingsCheck#requireValid}), with its value and what is allowed
     */
    static ClusterSettings from(KetamaConfig config) {
        SettingsCheck.requireValid(config);
        return from(config, new ArrayList<>());
    }

    /** Validates {@code config}, adding one line per invalid key to {@code problems}; null when any was added. */
    static ClusterSettings from(KetamaConfig config, List<String> problems) {
        int before = problems.size();
        Optional<String> token = config.admin().token().filter(t -> !t.isEmpty());
        if (token.isPresent()) {
            String t = token.get();
            if (t.length() < MIN_TOKEN_LENGTH || !t.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
                problems.add(KetamaSettings.PREFIX + "admin.token must be at least " + MIN_TOKEN_LENGTH
                        + " printable ASCII characters without spaces (e.g. from `openssl rand -hex 24`), was "
                        + t.length() + " characters" + (t.chars().allMatch(c -> c > 0x20 && c < 0x7f) ? "" : " with spaces or non-ASCII"));
            }
        }
        Duration timeout = config.drain().timeout();
        if (timeout.isNegative() || timeout.compareTo(MAX_DRAIN) > 0) {
            problems.add(KetamaSettings.PREFIX + "drain.timeout must be from 0 to " + MAX_DRAIN.toMinutes() + "m (e.g. 10s), was " + timeout);
        }
        Duration quiet = config.drain().quietPeriod();
        if (quiet.isNegative() || quiet.compareTo(MAX_DRAIN) > 0) {
            problems.add(KetamaSettings.PREFIX + "drain.quiet-period must be from 0 to " + MAX_DRAIN.toMinutes() + "m (e.g. 1s), was "
                    + quiet);
        }
        MemberAllowlist allowlist = null;
        if (config.hazelcast().memberAllowlist().isPresent()) {
            try {
                allowlist = MemberAllowlist.of(config.hazelcast().memberAllowlist().get());
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
        OptionalInt minMembers = config.migration().minMembers();
        if (minMembers.isPresent() && minMembers.getAsInt() < 1) {
            problems.add(KetamaSettings.PREFIX + "migration.min-members must be at least 1 (a majority of the cluster's members, "
                    + "e.g. 3 of 5, to keep changes made on the smaller side of a network partition from being acknowledged), was "
                    + minMembers.getAsInt());
        }
        Duration forget = config.migration().forgetFailedAfter();
        if (forget.compareTo(MIN_FORGET) < 0 || forget.compareTo(MAX_FORGET) > 0) {
            problems.add(KetamaSettings.PREFIX + "migration.forget-failed-after must be from 1m to 30d (longer than the network "
                    + "partitions the cluster must ride out, e.g. 1h), was " + forget);
        }
        long revision = config.migration().revision().orElse(0);
        if (config.migration().revision().isPresent() && revision < 1) {
            problems.add(KetamaSettings.PREFIX + "migration.revision must be a whole number from 1 (e.g. the version of the "
                    + "configuration that sets the migration keys) when set, was " + revision);
        }
        return problems.size() > before ? null
                : new ClusterSettings(config.migration().source(), token, timeout, quiet, allowlist, minMembers, forget, revision);
    }

    @Override
    public String toString() { // never the token itself
        return "ClusterSettings[migrationSource=" + migrationSource + ", adminToken=" + (adminToken.isPresent() ? "set" : "unset")
                + ", drainTimeout=" + drainTimeout + ", drainQuietPeriod=" + drainQuietPeriod + ", memberAllowlist="
                + memberAllowlist + ", minMembers=" + minMembers + ", forgetFailedAfter=" + forgetFailedAfter + ", migrationRevision=" + migrationRevision + "]";
    }
}
