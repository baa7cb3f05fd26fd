package io.ketama.quarkus.runtime;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import io.ketama.core.HashStyle;
import io.ketama.quarkus.MigrationSettings.Mode;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSource;
import io.ketama.quarkus.MigrationState;
import io.ketama.quarkus.RingSnapshot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static io.ketama.quarkus.runtime.LoopbackMembers.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A split-brain merge through Hazelcast's own merge, without root: member C forms a cluster of its
 * own (the others were not up when it started), members A and B form another, and C's periodic
 * search for other clusters finds A and merges its side into the larger one, as a member cut off by a
 * network partition does once the partition heals. Every member runs the extension's cluster part
 * ({@link ClusterRings}: board, gate, migration follower, rebuilds) and has opened its gate, and both
 * sides changed the migration state while apart.
 *
 * <p>Hazelcast gives a merging member a new UUID. Before the board was keyed by the UUID a member has
 * now, C went on writing its entry under its old UUID, the oldest member swept that entry every 2 s
 * (its UUID was no longer in the cluster), every member rebuilt its rings every second, and C never
 * came back onto anyone's rings, until restarted. And C, whose side had made more changes, put its
 * own state over the larger side's after the merge.
 */
class SplitBrainMergeTest {

    /** How often Hazelcast looks for another cluster to merge with (our default is 10 s; shorter keeps the test short). */
    private static final int MERGE_SECONDS = 2;
    private static final Duration COALESCE = Duration.ofMillis(50);
    /** The bound after the merge in which every member must agree again (runtime/README, "Faults"). */
    private static final Duration AGREE_WITHIN = Duration.ofSeconds(10);
    /** How long the rings must then stay as they are: three of the board's 2 s resyncs. */
    private static final Duration QUIET = Duration.ofSeconds(6);
    private static final MigrationSettings LARGER_SIDE = new MigrationSettings(Mode.SPLIT, 10, false);

    private final LoopbackMembers members = new LoopbackMembers("ketama-merge", 3);
    private final List<ClusterRings> running = new CopyOnWriteArrayList<>();
    private final List<String> rebuilds = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        running.forEach(ClusterRings::close);
        members.close();
    }

    /** A gated member of the test's cluster that joins only the members {@code joins} (by index). */
    private HazelcastInstance member(int index, int... joins) {
        return members.start(index, config -> {
            faultTiming(config);
            config.getNetworkConfig().getJoin().getTcpIpConfig().clear();
            for (int j : joins) {
                config.getNetworkConfig().getJoin().getTcpIpConfig().addMember("127.0.0.1:" + members.port(j));
            }
            MemberAttributes.publish(config, 1, Set.of(), "default", null);
            MemberAttributes.gate(config);
            return Hazelcast.newHazelcastInstance(config);
        });
    }

    private static void faultTiming(Config config) {
        config.setProperty("hazelcast.merge.first.run.delay.seconds", Integer.toString(MERGE_SECONDS));
        config.setProperty("hazelcast.merge.next.run.delay.seconds", Integer.toString(MERGE_SECONDS));
    }

    private ClusterRings run(HazelcastInstance hz, MigrationSettings configured) {
        ClusterRings rings = ClusterRings.startOn(hz, new RingSettings(HashStyle.PINGORA, 16), configured, MigrationSource.CLUSTER,
                COALESCE);
        running.add(rings);
        rings.open();
        return rings;
    }

    @Test
    void aMergedMemberComesBackOntoEveryRingAtOnceAndTheLargerSidesStateIsKept() throws Exception {
        // C first, alone: it lists A and B, who are not up, so it forms a cluster of its own; A and
        // B list only each other, so they form another without it; C's merge search finds them.
        HazelcastInstance c = member(2, 0, 1, 2);
        ClusterRings ringsC = run(c, new MigrationSettings(Mode.SPLIT, 90, false));
        UUID before = c.getCluster().getLocalMember().getUuid();
        HazelcastInstance a = member(0, 0, 1);
        ClusterRings ringsA = run(a, MigrationSettings.DEFAULT);
        HazelcastInstance b = member(1, 0, 1);
        ClusterRings ringsB = run(b, MigrationSettings.DEFAULT);

        // the larger side changes its state once; the smaller side changes its own twice, so it has
        // the higher generation (3 against 2): generations alone would let the smaller side win
        MigrationState larger = ringsA.updateMigration(LARGER_SIDE, ClusterMigration.ANY_GENERATION, "admin of A");
        ringsC.updateMigration(new MigrationSettings(Mode.SPLIT, 95, false), ClusterMigration.ANY_GENERATION, "admin of C");
        MigrationState smaller = ringsC.updateMigration(new MigrationSettings(Mode.V2, 0, false), ClusterMigration.ANY_GENERATION,
                "admin of C");
        assertThat(smaller.generation()).isGreaterThan(larger.generation());

        // C's own rings must never be empty, whatever the merge does to its view of the cluster;
        // every rebuild of every member is recorded with its reason, for the failure messages
        AtomicBoolean watching = new AtomicBoolean(true);
        AtomicInteger fewestOnC = new AtomicInteger(Integer.MAX_VALUE);
        List<ClusterRings> sides = List.of(ringsA, ringsB, ringsC);
        Thread watcher = new Thread(() -> {
            long[] seen = new long[sides.size()];
            while (watching.get()) {
                fewestOnC.accumulateAndGet(ringsC.snapshot().members().size(), Math::min);
                for (int i = 0; i < seen.length; i++) {
                    RingSnapshot s = sides.get(i).snapshot();
                    if (s.generation() != seen[i]) {
                        seen[i] = s.generation();
                        rebuilds.add("ABC".charAt(i) + " rebuilt (generation " + s.generation() + ", " + s.members().size()
                                + " members): " + s.reason());
                    }
                }
                Thread.onSpinWait();
            }
        }, "watch-rings");
        watcher.setDaemon(true);
        watcher.start();
        AtomicLong mergedAt = new AtomicLong();
        c.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.MERGED) {
                mergedAt.set(System.nanoTime());
            }
        });

        await(() -> mergedAt.get() != 0 && a.getCluster().getMembers().size() == 3, "C merged into A and B's cluster");
        UUID after = c.getCluster().getLocalMember().getUuid();
        assertThat(after).as("Hazelcast gives a merging member a new UUID").isNotEqualTo(before);

        List<ClusterRings> all = List.of(ringsA, ringsB, ringsC);
        await(() -> agree(all, 3), "all three members on every member's rings, with the same owners and migration state");
        Duration agreedAfter = Duration.ofNanos(System.nanoTime() - mergedAt.get());
        System.out.printf("SplitBrainMergeTest: every member agreed %d ms after the merge%n", agreedAfter.toMillis());
        assertThat(agreedAfter).as("agreement after the merge").isLessThanOrEqualTo(AGREE_WITHIN);

        MigrationState kept = ringsA.migration();
        assertThat(kept).as("the larger side's state is kept").isEqualTo(larger);
        assertThat(ringsC.migration()).isEqualTo(larger);

        // no rebuild loop: the rings of every member stay as they are for three board resyncs
        List<Long> generations = new ArrayList<>();
        all.forEach(r -> generations.add(r.snapshot().generation()));
        Thread.sleep(QUIET.toMillis());
        for (int i = 0; i < all.size(); i++) {
            assertThat(all.get(i).snapshot().generation()).as("member %s rebuilt its rings after agreeing; rebuilds: %s",
                            "ABC".charAt(i), rebuilds)
                    .isEqualTo(generations.get(i));
        }
        assertThat(agree(all, 3)).isTrue();
        assertThat(a.getMap(MemberBoard.MAP).keySet()).as("the board holds the members' current UUIDs only")
                .containsExactlyInAnyOrder(a.getCluster().getLocalMember().getUuid().toString(),
                        b.getCluster().getLocalMember().getUuid().toString(), after.toString());
        watching.set(false);
        watcher.join();
        assertThat(fewestOnC.get()).as("members on C's rings at the emptiest moment").isGreaterThanOrEqualTo(1);
    }

    /** Whether every member's rings hold {@code n} members, place 200 keys alike, and apply one migration state. */
    private static boolean agree(List<ClusterRings> all, int n) {
        RingSnapshot first = all.get(0).snapshot();
        MigrationState migration = all.get(0).migration();
        for (ClusterRings r : all) {
            RingSnapshot s = r.snapshot();
            if (s.members().size() != n || !r.migration().equals(migration)) {
                return false;
            }
            for (int k = 0; k < 200; k++) {
                byte[] key = ("key-" + k).getBytes(StandardCharsets.UTF_8);
                if (!s.ring(io.ketama.core.RingVersion.V1).locate(key).payload().getUuid()
                        .equals(first.ring(io.ketama.core.RingVersion.V1).locate(key).payload().getUuid())) {
                    return false;
                }
            }
        }
        return true;
    }
}
