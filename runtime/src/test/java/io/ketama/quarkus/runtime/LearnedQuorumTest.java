package io.ketama.quarkus.runtime;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.instance.impl.Node;
import io.ketama.core.HashStyle;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.MigrationQuorumException;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSettings.Mode;
import io.ketama.quarkus.MigrationSource;
import io.ketama.quarkus.MigrationState;
import io.ketama.quarkus.RingSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import static io.ketama.quarkus.runtime.LoopbackMembers.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The learned quorum (issue 40) on real Hazelcast members running the extension's cluster part, with
 * no {@code min-members} set: a migration change needs a majority of the members the cluster
 * expects ({@link ClusterRoster}, {@link MigrationQuorum}). A cluster of one changes at once; a
 * graceful scale-down from three to one leaves the last able to change; a member dropped by failure
 * ({@code terminate()}, no drain) still counts until it returns, an operator removes it, or
 * {@code forget-failed-after} passes; and a partition (two clusters in one JVM, merged by Hazelcast's
 * own merge search) lets only the larger side change the state, which the merge keeps.
 */
class LearnedQuorumTest {

    private static final Duration COALESCE = Duration.ofMillis(50);
    /** The bound after the merge in which every member must agree again (issue 40, point 5). */
    private static final Duration AGREE_WITHIN = Duration.ofSeconds(10);

    private final LoopbackMembers members = new LoopbackMembers("ketama-learned", 3);
    private final List<ClusterRings> running = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        running.forEach(ClusterRings::close);
        members.close();
    }

    private static MigrationSettings split(double share) {
        return new MigrationSettings(Mode.SPLIT, share, false);
    }

    /** A gated member; the test merges split clusters itself, so Hazelcast's own merge search waits an hour. */
    private HazelcastInstance hazelcast(int index) {
        return members.start(index, config -> {
            noMergeSearch(config);
            MemberAttributes.publish(config, 1, Set.of(), "default", null);
            MemberAttributes.gate(config);
            return Hazelcast.newHazelcastInstance(config);
        });
    }

    private static void noMergeSearch(Config config) {
        config.setProperty("hazelcast.merge.first.run.delay.seconds", "3600");
        config.setProperty("hazelcast.merge.next.run.delay.seconds", "3600");
    }

    /** Runs the extension's part on {@code hz} with no quorum setting, and opens it. */
    private ClusterRings run(HazelcastInstance hz) {
        return run(hz, ClusterRings.FORGET_FAILED_AFTER);
    }

    private ClusterRings run(HazelcastInstance hz, Duration forgetFailedAfter) {
        ClusterRings rings = ClusterRings.start(hz, new ClusterRings.Settings(new RingSettings(HashStyle.PINGORA, 16), COALESCE,
                MigrationSettings.DEFAULT, MigrationSource.CLUSTER, true, null, OptionalInt.empty(), forgetFailedAfter, null));
        running.add(rings);
        rings.open();
        return rings;
    }

    private static String identity(HazelcastInstance hz) {
        return ClusterRoster.identity(hz.getCluster().getLocalMember());
    }

    @Test
    void aClusterOfOneStartedWithNoSettingsChangesItsStateAtOnce() {
        ClusterRings a = run(hazelcast(0));
        assertThat(a.quorum().status()).isEqualTo(new MigrationQuorum.Status(true, 1, 1, 1));

        long start = System.nanoTime();
        MigrationState made = a.updateMigration(split(10), ClusterMigration.ANY_GENERATION, "admin");
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("LearnedQuorumTest: a cluster of one changed its state in %d ms%n", millis);
        assertThat(made.generation()).isEqualTo(2);
        assertThat(Duration.ofMillis(millis)).as("no wait for confirmations").isLessThan(MigrationQuorum.CONFIRM_TIMEOUT);
    }

    @Test
    void aGracefulScaleDownFromThreeToOneLeavesTheLastMemberAbleToChangeItsState() throws InterruptedException {
        HazelcastInstance hzA = hazelcast(0);
        ClusterRings a = run(hzA);
        HazelcastInstance hzB = hazelcast(1);
        ClusterRings b = run(hzB);
        HazelcastInstance hzC = hazelcast(2);
        ClusterRings c = run(hzC);
        await(() -> a.quorum().status().expected() == 3 && a.quorum().status().seen() == 3, "three members expected");
        assertThat(a.quorum().status()).isEqualTo(new MigrationQuorum.Status(true, 3, 3, 2));
        assertThat(a.updateMigration(split(10), ClusterMigration.ANY_GENERATION, "admin").generation()).isEqualTo(2);

        for (ClusterRings leaving : List.of(c, b)) { // each drains, as on SIGTERM, then stops
            leaving.drain(Duration.ofSeconds(10), Duration.ZERO);
            leaving.close();
            running.remove(leaving);
        }
        members.stop(hzC);
        members.stop(hzB);
        await(() -> hzA.getCluster().getMembers().size() == 1, "A alone");
        await(() -> a.quorum().status().expected() == 1, "A the only member expected");
        assertThat(a.roster().current().members()).containsOnlyKeys(identity(hzA));
        assertThat(a.quorum().status()).isEqualTo(new MigrationQuorum.Status(true, 1, 1, 1));

        MigrationState made = a.updateMigration(split(20), ClusterMigration.ANY_GENERATION, "admin");
        assertThat(made.generation()).isEqualTo(3);
        assertThat(a.migration()).isEqualTo(made);
    }

    @Test
    void aMemberDroppedByFailureStillCountsUntilItReturnsOrAnOperatorRemovesIt() {
        HazelcastInstance hzA = hazelcast(0);
        ClusterRings a = run(hzA);
        HazelcastInstance hzB = hazelcast(1);
        run(hzB);
        HazelcastInstance hzC = hazelcast(2);
        run(hzC);
        await(() -> a.quorum().status().expected() == 3 && a.quorum().status().seen() == 3, "three members expected");
        String idB = identity(hzB);
        String idC = identity(hzC);

        // C crashes (no drain, no close): it still counts, and 2 of 3 are a majority
        hzC.getLifecycleService().terminate();
        await(() -> hzA.getCluster().getMembers().size() == 2, "C dropped from the cluster");
        await(() -> a.roster().current().absent().containsKey(idC), "C noted missing");
        assertThat(a.quorum().status()).isEqualTo(new MigrationQuorum.Status(true, 3, 2, 2));
        assertThat(a.updateMigration(split(10), ClusterMigration.ANY_GENERATION, "admin").generation()).isEqualTo(2);

        // B crashes too: A alone is 1 of 3, and is refused with nothing written
        hzB.getLifecycleService().terminate();
        await(() -> hzA.getCluster().getMembers().size() == 1, "B dropped from the cluster");
        assertThat(a.quorum().status()).isEqualTo(new MigrationQuorum.Status(true, 3, 1, 2));
        assertThatThrownBy(() -> a.updateMigration(split(20), ClusterMigration.ANY_GENERATION, "admin"))
                .isInstanceOf(MigrationQuorumException.class)
                .hasMessageStartingWith("this member sees 1 of the 3 members the cluster expects, fewer than the 2 (a majority) a "
                        + "migration change needs: the cluster may be split and this the smaller side; nothing was changed")
                .satisfies(e -> assertThat(((MigrationQuorumException) e).stored()).isFalse());
        assertThat(a.migration().generation()).isEqualTo(2);

        // B returns (same address, so the same identity): 2 of 3 again
        HazelcastInstance hzB2 = hazelcast(1);
        run(hzB2);
        await(() -> a.quorum().status().seen() == 2 && hzA.getCluster().getMembers().size() == 2, "B back");
        assertThat(a.quorum().status()).isEqualTo(new MigrationQuorum.Status(true, 3, 2, 2));
        assertThat(a.updateMigration(split(30), ClusterMigration.ANY_GENERATION, "admin").generation()).isEqualTo(3);

        // an operator removes C, which will not return; a member that is there is never removed
        assertThat(a.roster().remove(identity(hzA))).isEqualTo(ClusterRoster.Removal.PRESENT);
        assertThat(a.roster().remove(idB)).isEqualTo(ClusterRoster.Removal.PRESENT);
        assertThat(a.roster().remove("10.9.9.9:5701")).isEqualTo(ClusterRoster.Removal.NOT_EXPECTED);
        assertThat(a.roster().remove(idC)).isEqualTo(ClusterRoster.Removal.REMOVED);
        assertThat(a.quorum().status()).isEqualTo(new MigrationQuorum.Status(true, 2, 2, 2));
        await(() -> running.get(running.size() - 1).quorum().status().expected() == 2, "the removal on B too");
    }

    @Test
    void aFailedMemberStopsCountingOnceMissingForLongerThanForgetFailedAfter() {
        Duration forget = Duration.ofSeconds(3);
        HazelcastInstance hzA = hazelcast(0);
        ClusterRings a = run(hzA, forget);
        HazelcastInstance hzB = hazelcast(1);
        run(hzB, forget);
        await(() -> a.quorum().status().expected() == 2 && a.quorum().status().seen() == 2, "two members expected");

        hzB.getLifecycleService().terminate();
        await(() -> hzA.getCluster().getMembers().size() == 1, "B dropped from the cluster");
        long dropped = System.nanoTime();
        assertThat(a.quorum().status().refusing()).as("1 of 2 is no majority").isTrue();
        assertThatThrownBy(() -> a.updateMigration(split(10), ClusterMigration.ANY_GENERATION, "admin"))
                .isInstanceOf(MigrationQuorumException.class);

        await(() -> a.quorum().status().expected() == 1, "B forgotten");
        long forgottenAfter = (System.nanoTime() - dropped) / 1_000_000;
        System.out.printf("LearnedQuorumTest: a failed member forgotten %d ms after it was dropped (forget-failed-after %s)%n",
                forgottenAfter, forget);
        assertThat(Duration.ofMillis(forgottenAfter)).isGreaterThanOrEqualTo(forget.minus(ClusterRoster.RESYNC));
        assertThat(a.updateMigration(split(10), ClusterMigration.ANY_GENERATION, "admin").generation()).isEqualTo(2);
    }

    /**
     * A partition without root: C is split off a formed cluster of three (each side suspects the
     * other, as a failure detector that heard nothing would), so each side runs on as a cluster of
     * its own; then Hazelcast's own merge search, run on the smaller side's master as its
     * split-brain handler runs it, merges C back into the larger side.
     */
    @Test
    void theMinoritysChangeIsRefusedTheMajoritysKeptAndEveryMemberAgreesWithinTenSecondsOfTheMerge() {
        HazelcastInstance hzA = hazelcast(0);
        ClusterRings a = run(hzA);
        HazelcastInstance hzB = hazelcast(1);
        ClusterRings b = run(hzB);
        HazelcastInstance hzC = hazelcast(2);
        ClusterRings c = run(hzC);
        List<ClusterRings> all = List.of(a, b, c);
        await(() -> all.stream().allMatch(r -> r.quorum().status().expected() == 3 && r.quorum().status().seen() == 3 && r.snapshot().members().size() == 3),
                "three members expected and on every ring");

        // the cut
        com.hazelcast.cluster.Member cByA = asSeenBy(hzA, hzC);
        com.hazelcast.cluster.Member cByB = asSeenBy(hzB, hzC);
        com.hazelcast.cluster.Member aByC = asSeenBy(hzC, hzA);
        com.hazelcast.cluster.Member bByC = asSeenBy(hzC, hzB);
        node(hzC).getClusterService().suspectMember(bByC, "test: partition", true);
        node(hzC).getClusterService().suspectMember(aByC, "test: partition", true);
        node(hzA).getClusterService().suspectMember(cByA, "test: partition", true);
        node(hzB).getClusterService().suspectMember(cByB, "test: partition", true);
        await(() -> hzC.getCluster().getMembers().size() == 1 && hzA.getCluster().getMembers().size() == 2
                && hzB.getCluster().getMembers().size() == 2, "two clusters: A and B, and C alone");
        assertThat(c.quorum().status()).as("C still expects A and B").isEqualTo(new MigrationQuorum.Status(true, 3, 1, 2));
        assertThat(a.quorum().status()).as("A and B still expect C").isEqualTo(new MigrationQuorum.Status(true, 3, 2, 2));

        // a change on each side: the majority's is acknowledged, the minority's refused with nothing written
        MigrationState majority = a.updateMigration(split(40), ClusterMigration.ANY_GENERATION, "admin of A");
        assertThatThrownBy(() -> c.updateMigration(split(90), ClusterMigration.ANY_GENERATION, "admin of C"))
                .isInstanceOf(MigrationQuorumException.class)
                .hasMessageStartingWith("this member sees 1 of the 3 members the cluster expects, fewer than the 2 (a majority)")
                .satisfies(e -> assertThat(((MigrationQuorumException) e).stored()).isFalse());
        assertThat(c.migration().generation()).as("nothing written on the minority").isEqualTo(1);
        await(() -> b.migration().equals(majority), "the majority's change on B");

        // the heal: Hazelcast's merge search on the smaller side's master merges it into the larger
        AtomicLong mergedAt = new AtomicLong();
        hzC.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.MERGED) {
                mergedAt.set(System.nanoTime());
            }
        });
        node(hzC).getJoiner().searchForOtherClusters();
        await(() -> mergedAt.get() != 0 && hzA.getCluster().getMembers().size() == 3, "C merged into A and B's cluster");
        await(() -> agree(all, majority), "every member with all three on its rings, the majority's state, three expected");
        long agreed = (System.nanoTime() - mergedAt.get()) / 1_000_000;
        System.out.printf("LearnedQuorumTest: every member agreed %d ms after the merge (the majority's generation %d kept)%n",
                agreed, majority.generation());
        assertThat(Duration.ofMillis(agreed)).as("agreement after the merge").isLessThanOrEqualTo(AGREE_WITHIN);
        for (ClusterRings r : all) {
            assertThat(r.migration()).isEqualTo(majority);
            assertThat(r.quorum().status()).isEqualTo(new MigrationQuorum.Status(true, 3, 3, 2));
        }
        // and the whole cluster changes again
        assertThat(c.updateMigration(split(50), ClusterMigration.ANY_GENERATION, "admin of C").generation())
                .isEqualTo(majority.generation() + 1);
    }

    /** {@code other}'s member as {@code by} lists it (not {@code other}'s own local member). */
    private static com.hazelcast.cluster.Member asSeenBy(HazelcastInstance by, HazelcastInstance other) {
        java.util.UUID id = other.getCluster().getLocalMember().getUuid();
        return by.getCluster().getMembers().stream().filter(m -> m.getUuid().equals(id)).findFirst().orElseThrow();
    }

    private static Node node(HazelcastInstance hz) {
        return ((HazelcastInstanceProxy) hz).getOriginal().node;
    }

    /** Every member: three on its rings placing 200 keys alike, {@code state} applied, three expected and none missing. */
    private static boolean agree(List<ClusterRings> all, MigrationState state) {
        RingSnapshot first = all.get(0).snapshot();
        for (ClusterRings r : all) {
            RingSnapshot s = r.snapshot();
            if (s.members().size() != 3 || !r.migration().equals(state) || r.roster().current().size() != 3
                    || !r.roster().current().absent().isEmpty() || r.quorum().status().seen() != 3) {
                return false;
            }
            for (int k = 0; k < 200; k++) {
                byte[] key = ("key-" + k).getBytes(StandardCharsets.UTF_8);
                if (!s.ring(RingVersion.V1).locate(key).payload().getUuid().equals(first.ring(RingVersion.V1).locate(key).payload().getUuid())) {
                    return false;
                }
            }
        }
        return true;
    }
}
