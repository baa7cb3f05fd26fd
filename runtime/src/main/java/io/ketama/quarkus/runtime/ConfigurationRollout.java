package io.ketama.quarkus.runtime;

import io.ketama.quarkus.MemberAddress;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.MigrationState;

import java.util.Objects;

/**
 * Whether the configuration a member starts with moves the cluster's migration state: the rule that
 * lets a rolling restart with new {@code QUARKUS_KETAMA_MIGRATION_*} values change the state once,
 * a rolling restart back change it back, and an old member restarting with the configuration the
 * cluster has moved past change nothing.
 *
 * <h2>The rule</h2>
 * When a member becomes ready it compares its configuration {@code C} (settings and
 * {@code quarkus.ketama.migration.revision}) with the cluster's {@link AdoptedConfiguration} {@code L}:
 * <ol>
 *   <li><b>No record</b> (a new cluster, or one upgraded from a release without this rule): when the
 *       state came from configuration and differs from {@code C}, {@code C} is
 *       {@link Kind#ADOPT adopted}; else {@code C} is only {@link Kind#RECORD recorded} (a new
 *       cluster's state is its first member's configuration already; an admin change stays).</li>
 *   <li>{@code C = L}: {@link Kind#UNCHANGED}. The state stays as it is, also when an admin change
 *       or a ramp moved it away from {@code L}: such a change stays in force until the
 *       configuration changes again.</li>
 *   <li><b>Revisions</b>, where either side has one: {@code C} is adopted when its revision is higher
 *       than {@code L}'s, and {@link Kind#STALE stale} otherwise. Exact, whatever the order of
 *       restarts.</li>
 *   <li><b>Without revisions</b>: {@code C} is stale when this member is one of those still to be
 *       rolled onto {@code L} (it ran another configuration when {@code L} was adopted and has not
 *       come back with {@code L} since) and {@code C} is the configuration it ran then (or the
 *       cluster does not know which: a member of an earlier release); else {@code C} is adopted.</li>
 * </ol>
 *
 * <h2>Limits</h2>
 * Without revisions the rule knows old from new only by who had which configuration when the
 * cluster last moved: a member that was never one of the cluster's (a new host, a replaced pod with
 * another node id) or one already rolled onto {@code L}, started with an old configuration, is
 * taken for a new rollout and moves the cluster. A Kubernetes rollout cannot produce one (a pod
 * restarts with its StatefulSet's current spec); other deployments that may, set
 * {@code quarkus.ketama.migration.revision} (for example the configuration's version), which
 * rules it out. Members are known by their ring identity (the node id, else the address), so a
 * member whose address changes without a node id counts as a new one.
 */
final class ConfigurationRollout {

    private ConfigurationRollout() {
    }

    /**
     * How the rule knows a member across restarts: its node id ({@code quarkus.ketama.member.node-id}),
     * else its address, as the rings know it.
     */
    static String identity(com.hazelcast.cluster.Member member) {
        String nodeId = member.getAttribute(MemberAttributes.NODE_ID);
        return nodeId != null && !nodeId.isBlank() ? nodeId.trim() : MemberAddress.of(member);
    }

    /** What a member's configuration does to the cluster's state. */
    enum Kind {
        /** {@code C} becomes the cluster's state (a new generation) and the recorded configuration. */
        ADOPT,
        /** {@code C} is recorded as the cluster's configuration; the state stays. */
        RECORD,
        /** {@code C} is the cluster's configuration already: nothing changes (but the member counts as rolled). */
        UNCHANGED,
        /** {@code C} is one the cluster moved past: nothing changes. */
        STALE
    }

    /**
     * @param kind what to do
     * @param why  for the log
     */
    record Decision(Kind kind, String why) {
    }

    /**
     * @param mine     this member's configuration
     * @param identity this member's ring identity
     * @param recorded the cluster's adopted configuration, or null when it has none
     * @param state    the cluster's migration state now
     */
    static Decision decide(ConfiguredMigration mine, String identity, AdoptedConfiguration recorded, MigrationState state) {
        Objects.requireNonNull(mine, "mine");
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(state, "state");
        if (recorded == null) {
            if (state.origin() == MigrationState.Origin.CONFIGURATION && !state.settings().equals(mine.settings())) {
                return new Decision(Kind.ADOPT, "the cluster has no record of an adopted configuration and its state came from "
                        + "configuration (" + state.changedBy() + "): this member's configuration is newer");
            }
            return new Decision(Kind.RECORD, state.origin() == MigrationState.Origin.CONFIGURATION
                    ? "the cluster's state is this configuration already"
                    : "the cluster has no record of an adopted configuration and its state came from " + state.changedBy()
                            + ", which stays in force");
        }
        ConfiguredMigration adopted = recorded.configured();
        if (mine.equals(adopted)) {
            return new Decision(Kind.UNCHANGED, recorded.generation() == 0
                    ? "the cluster recorded this configuration from " + recorded.from()
                    : "the cluster adopted this configuration at generation " + recorded.generation());
        }
        if (mine.revision() > 0 || adopted.revision() > 0) {
            return mine.revision() > adopted.revision()
                    ? new Decision(Kind.ADOPT, "revision " + mine.revision() + " is newer than the cluster's " + adopted.revision())
                    : new Decision(Kind.STALE, "revision " + mine.revision() + " is not newer than the cluster's " + adopted.revision()
                            + " (" + adopted + ", adopted from " + recorded.from() + ")");
        }
        String before = recorded.pending().get(identity);
        if (before != null && (before.isEmpty() || before.equals(mine.encode()))) {
            return new Decision(Kind.STALE, "this member ran " + (before.isEmpty() ? "an unknown configuration" : "this configuration")
                    + " when the cluster adopted " + adopted + " from " + recorded.from() + " and has not been rolled onto it yet");
        }
        return new Decision(Kind.ADOPT, "it differs from the cluster's " + adopted + " (adopted from " + recorded.from()
                + "), and this member is not one still to be rolled onto that");
    }
}
