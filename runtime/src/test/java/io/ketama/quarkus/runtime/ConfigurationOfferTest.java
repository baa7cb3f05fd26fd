package io.ketama.quarkus.runtime;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.core.HashStyle;
import io.ketama.quarkus.MigrationSettings.Mode;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSource;
import io.ketama.quarkus.MigrationState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static io.ketama.quarkus.runtime.LoopbackMembers.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Configuration rollouts on real members running the extension's cluster part, each offering its
 * configuration when it becomes ready, as the extension's member does: a rolling restart with new
 * settings moves the cluster once, when the first restarted member is ready; a rolling restart back
 * moves it back; a member still to be rolled that restarts with its old settings moves nothing; an
 * admin change stays in force while the configuration stays.
 */
class ConfigurationOfferTest {

    private static final ConfiguredMigration V1 = new ConfiguredMigration(MigrationSettings.DEFAULT, 0);
    private static final ConfiguredMigration SPLIT_50 = new ConfiguredMigration(new MigrationSettings(Mode.SPLIT, 50, false), 0);

    private final LoopbackMembers members = new LoopbackMembers("ketama-config-offer", 3);
    private final Running[] running = new Running[3];

    private record Running(HazelcastInstance hz, ClusterRings rings) {
    }

    @AfterEach
    void stop() {
        for (Running r : running) {
            if (r != null) {
                r.rings().close();
            }
        }
        members.close();
    }

    /** Starts member {@code index} with {@code configured}, as the extension does, and waits until it offered it. */
    private ClusterRings start(int index, ConfiguredMigration configured) {
        HazelcastInstance hz = members.start(index, config -> {
            MemberAttributes.publish(config, 1, Set.of(), "default", null);
            MemberAttributes.gate(config);
            configured.publishOn(config);
            return Hazelcast.newHazelcastInstance(config);
        });
        ClusterRings rings = new ClusterRings(hz, new ClusterRings.Settings(new RingSettings(HashStyle.PINGORA, 16), Duration.ofMillis(50),
                configured.settings(), MigrationSource.CLUSTER, true, null, java.util.OptionalInt.of(1), ClusterRings.FORGET_FAILED_AFTER,
                configured), RingMetrics.NONE, () -> null);
        rings.start();
        rings.open();
        running[index] = new Running(hz, rings);
        await(() -> rings.offerDecision() != null, "member " + index + " offered its configuration");
        return rings;
    }

    /** Restarts member {@code index} with {@code configured}; returns what became of its configuration. */
    private ConfigurationRollout.Kind restart(int index, ConfiguredMigration configured) {
        running[index].rings().close();
        members.stop(running[index].hz());
        running[index] = null;
        return start(index, configured).offerDecision().kind();
    }

    private String identity(int index) {
        return "127.0.0.1:" + members.port(index);
    }

    private List<ClusterRings> all() {
        List<ClusterRings> out = new ArrayList<>();
        for (Running r : running) {
            if (r != null) {
                out.add(r.rings());
            }
        }
        return out;
    }

    private void awaitEveryMemberOn(MigrationState state) {
        await(() -> all().stream().allMatch(r -> r.migration().equals(state)), "every member on " + state);
    }

    private AdoptedConfiguration adopted() {
        try {
            return (running[0] != null ? running[0] : running[1]).rings().migrations().adoptedConfiguration(Duration.ofSeconds(30));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the adopted configuration was not read within 30 s", e);
        }
    }

    @Test
    void aRollingRestartMovesTheClusterOnceAndBackAndAnOldMemberMovesNothing() {
        ClusterRings first = start(0, V1);
        assertThat(first.offerDecision().kind()).as("a new cluster records its first member's configuration")
                .isEqualTo(ConfigurationRollout.Kind.RECORD);
        assertThat(start(1, V1).offerDecision().kind()).isEqualTo(ConfigurationRollout.Kind.UNCHANGED);
        start(2, V1);
        await(() -> adopted() != null && adopted().pending().isEmpty(), "v1 recorded as the cluster's configuration");
        MigrationState seed = first.migration();
        assertThat(seed.generation()).isEqualTo(1);
        assertThat(adopted().configured()).isEqualTo(V1);

        // an admin change stays in force while the configuration stays: a member restarting with v1 keeps it
        MigrationState admin = first.updateMigration(new MigrationSettings(Mode.SPLIT, 10, true), ClusterMigration.ANY_GENERATION,
                MigrationState.BY_ADMIN + "/10.0.0.9:4711");
        assertThat(restart(1, V1)).isEqualTo(ConfigurationRollout.Kind.UNCHANGED);
        awaitEveryMemberOn(admin);
        assertThat(adopted().configured()).isEqualTo(V1);

        // the rollout: the first member restarted with split 50 moves every member, once
        assertThat(restart(2, SPLIT_50)).isEqualTo(ConfigurationRollout.Kind.ADOPT);
        await(() -> all().stream().allMatch(r -> r.migration().settings().equals(SPLIT_50.settings())), "split 50 on every member");
        MigrationState rolledOut = running[2].rings().migration();
        assertThat(rolledOut.generation()).isEqualTo(admin.generation() + 1);
        assertThat(rolledOut.changedBy()).isEqualTo("configuration of " + identity(2));
        assertThat(adopted().configured()).isEqualTo(SPLIT_50);
        assertThat(adopted().generation()).isEqualTo(rolledOut.generation());
        assertThat(adopted().pending()).containsOnlyKeys(identity(0), identity(1));

        // the member still to be rolled restarts with its old settings: stale, nothing moves
        assertThat(restart(1, V1)).isEqualTo(ConfigurationRollout.Kind.STALE);
        awaitEveryMemberOn(rolledOut);
        assertThat(adopted().pending()).as("still to be rolled").containsKey(identity(1));
        // rolled at last: it leaves the pending members, and the state stays
        assertThat(restart(1, SPLIT_50)).isEqualTo(ConfigurationRollout.Kind.UNCHANGED);
        await(() -> !adopted().pending().containsKey(identity(1)), identity(1) + " rolled");
        restart(0, SPLIT_50);
        await(() -> adopted().pending().isEmpty(), "every member rolled");
        awaitEveryMemberOn(rolledOut);

        // the rollback: a rolling restart back to v1 moves the cluster back when its first member is ready
        assertThat(restart(2, V1)).isEqualTo(ConfigurationRollout.Kind.ADOPT);
        await(() -> all().stream().allMatch(r -> r.migration().settings().equals(V1.settings())), "v1 again on every member");
        MigrationState back = running[2].rings().migration();
        assertThat(back.generation()).isEqualTo(rolledOut.generation() + 1);
        assertThat(back.origin()).isEqualTo(MigrationState.Origin.CONFIGURATION);
        restart(1, V1);
        restart(0, V1);
        await(() -> adopted().pending().isEmpty(), "every member rolled back");
        awaitEveryMemberOn(back);
    }
}
