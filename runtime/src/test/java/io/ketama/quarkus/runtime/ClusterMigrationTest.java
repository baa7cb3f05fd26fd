package io.ketama.quarkus.runtime;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.ketama.quarkus.MigrationSettings.Mode;
import io.ketama.quarkus.MemberAddress;
import io.ketama.quarkus.MigrationConflictException;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSource;
import io.ketama.quarkus.MigrationState;
import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import static io.ketama.quarkus.runtime.LoopbackMembers.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The cluster's migration state on real Hazelcast members, each running its own
 * {@link ClusterMigration} as the extension does: one change reaches every member with the same
 * generation, a joiner adopts the state, concurrent changes cannot both win silently, and the
 * configuration seeds only a new cluster.
 */
class ClusterMigrationTest {

    private static final MigrationSettings SPLIT_10 = new MigrationSettings(Mode.SPLIT, 10, true);
    private static final MigrationSettings V1 = MigrationSettings.DEFAULT;

    /** Held here so the log manager keeps the handler a test adds to it. */
    private static final Logger CLUSTER_MIGRATION_LOG = Logger.getLogger(ClusterMigration.class.getName());

    private final LoopbackMembers members = new LoopbackMembers("ketama-cluster-migration", 5);
    private final List<Member> running = new ArrayList<>();

    /** One Hazelcast member with the extension's migration follower, recording when it applied each generation. */
    private final class Member {
        final HazelcastInstance hz;
        final ClusterMigration migration;
        final Map<Long, Long> appliedAtNanos = new ConcurrentHashMap<>();
        final List<MigrationState> applied = new CopyOnWriteArrayList<>();

        Member(int index, MigrationSettings configured, MigrationSource source) {
            hz = members.start(index);
            migration = new ClusterMigration(hz, source, s -> {
                appliedAtNanos.putIfAbsent(s.generation(), System.nanoTime());
                applied.add(s);
            }, Clock.systemUTC(), r -> {
                Thread t = new Thread(r, followerName(index)); // whose follower logged what
                t.setDaemon(true);
                return t;
            });
            migration.start(configured);
            running.add(this);
        }

        void stop() {
            migration.close();
            members.stop(hz);
            running.remove(this);
        }
    }

    @AfterEach
    void stopAll() {
        for (Member m : List.copyOf(running)) {
            m.migration.close();
        }
        running.clear();
        members.close();
    }

    @Test
    void theFirstMemberSeedsTheStateAndLaterMembersAdoptItWhateverTheirConfiguration() {
        Member first = new Member(0, SPLIT_10, MigrationSource.CLUSTER);
        Member second = new Member(1, V1, MigrationSource.CLUSTER);
        Member third = new Member(2, new MigrationSettings(Mode.V2, 0, false), MigrationSource.CLUSTER);

        for (Member m : List.of(first, second, third)) {
            // adopted inside start(): nothing else was ever applied on the joiners
            assertThat(m.applied).hasSize(1);
            assertThat(m.migration.current().settings()).isEqualTo(SPLIT_10);
            assertThat(m.migration.current().generation()).isEqualTo(1);
            assertThat(m.migration.current().changedBy()).isEqualTo("configuration of " + MemberAddress.of(first.hz.getCluster().getLocalMember()));
        }
    }

    @Test
    void oneChangeReachesEveryMemberWithTheSameGenerationWithinOneSecond() {
        Member a = new Member(0, V1, MigrationSource.CLUSTER);
        Member b = new Member(1, V1, MigrationSource.CLUSTER);
        Member c = new Member(2, V1, MigrationSource.CLUSTER);
        List<Member> all = List.of(a, b, c);
        double[] shares = {1, 10, 50, 100, 0, 0.01, 25, 75, 99.99, 100};
        long slowestNanos = 0;
        List<Long> slowestPerChange = new ArrayList<>();
        for (int i = 0; i < shares.length; i++) {
            Member at = all.get(i % all.size()); // changes made on every member in turn
            MigrationSettings next = new MigrationSettings(Mode.SPLIT, shares[i], i % 2 == 0);
            long before = System.nanoTime();
            MigrationState made = at.migration.update(next, ClusterMigration.ANY_GENERATION, "test");
            assertThat(made.generation()).isEqualTo(2 + i);
            await(() -> all.stream().allMatch(m -> m.migration.current().equals(made)), "generation " + made.generation()
                    + " on every member");
            long slowest = all.stream().mapToLong(m -> m.appliedAtNanos.get(made.generation()) - before).max().orElseThrow();
            slowestPerChange.add(TimeUnit.NANOSECONDS.toMillis(slowest));
            slowestNanos = Math.max(slowestNanos, slowest);
        }
        System.out.printf("ClusterMigrationTest: slowest member per change, ms: %s%n", slowestPerChange);
        assertThat(Duration.ofNanos(slowestNanos)).as("slowest member to apply a change, over %d changes: %s ms",
                shares.length, slowestPerChange).isLessThan(Duration.ofSeconds(1));
        // every member applied every generation, in order
        for (Member m : all) {
            assertThat(m.applied.stream().mapToLong(MigrationState::generation).toArray()).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
        }
    }

    @Test
    void aJoinerAdoptsTheChangedStateBeforeItsStartReturns() {
        Member a = new Member(0, V1, MigrationSource.CLUSTER);
        MigrationState changed = a.migration.update(new MigrationSettings(Mode.SPLIT, 37.5, false), ClusterMigration.ANY_GENERATION,
                "admin 127.0.0.1");
        Member joiner = new Member(1, new MigrationSettings(Mode.V2, 0, true), MigrationSource.CLUSTER);
        assertThat(joiner.applied).containsExactly(changed);
    }

    @Test
    void twoChangesAgainstTheSameGenerationCannotBothWin() throws Exception {
        Member a = new Member(0, V1, MigrationSource.CLUSTER);
        Member b = new Member(1, V1, MigrationSource.CLUSTER);
        long base = a.migration.current().generation();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 10; round++) {
                long expected = a.migration.current().generation();
                await(() -> b.migration.current().generation() == expected, "b at generation " + expected);
                CountDownLatch go = new CountDownLatch(1);
                Future<Object> fromA = pool.submit(() -> attempt(go, a, expected, 10));
                Future<Object> fromB = pool.submit(() -> attempt(go, b, expected, 90));
                go.countDown();
                List<Object> outcomes = List.of(fromA.get(60, TimeUnit.SECONDS), fromB.get(60, TimeUnit.SECONDS));
                assertThat(outcomes).filteredOn(o -> o instanceof MigrationState).hasSize(1);
                assertThat(outcomes).filteredOn(o -> o instanceof MigrationConflictException).hasSize(1);
                MigrationState winner = (MigrationState) outcomes.stream().filter(o -> o instanceof MigrationState).findFirst().orElseThrow();
                MigrationConflictException loser = (MigrationConflictException) outcomes.stream()
                        .filter(o -> o instanceof MigrationConflictException).findFirst().orElseThrow();
                assertThat(winner.generation()).isEqualTo(expected + 1);
                assertThat(loser.current().generation()).isGreaterThanOrEqualTo(expected + 1);
                await(() -> a.migration.current().equals(winner) && b.migration.current().equals(winner), "the winner everywhere");
            }
            // without an expected generation both changes apply, one on top of the other
            CountDownLatch go = new CountDownLatch(1);
            long expected = a.migration.current().generation();
            Future<Object> fromA = pool.submit(() -> attempt(go, a, ClusterMigration.ANY_GENERATION, 10));
            Future<Object> fromB = pool.submit(() -> attempt(go, b, ClusterMigration.ANY_GENERATION, 90));
            go.countDown();
            List<Object> outcomes = List.of(fromA.get(60, TimeUnit.SECONDS), fromB.get(60, TimeUnit.SECONDS));
            assertThat(outcomes).allMatch(o -> o instanceof MigrationState);
            assertThat(outcomes.stream().mapToLong(o -> ((MigrationState) o).generation()).sorted().toArray())
                    .containsExactly(expected + 1, expected + 2);
            assertThat(a.migration.current().generation()).isGreaterThan(base);
        } finally {
            pool.shutdownNow();
        }
    }

    private static Object attempt(CountDownLatch go, Member m, long expected, double share) throws InterruptedException {
        go.await();
        try {
            return m.migration.update(new MigrationSettings(Mode.SPLIT, share, false), expected, "racer " + share);
        } catch (MigrationConflictException e) {
            return e;
        }
    }

    @Test
    void aFullRestartStartsFromTheConfigurationAgain() {
        Member a = new Member(0, V1, MigrationSource.CLUSTER);
        Member b = new Member(1, V1, MigrationSource.CLUSTER);
        a.migration.update(new MigrationSettings(Mode.SPLIT, 50, true), ClusterMigration.ANY_GENERATION, "admin");
        await(() -> b.migration.current().generation() == 2, "b at generation 2");

        // a rolling restart keeps the cluster's state: b restarts with another configuration and adopts it
        b.stop();
        Member b2 = new Member(1, new MigrationSettings(Mode.V2, 0, false), MigrationSource.CLUSTER);
        assertThat(b2.migration.current().generation()).isEqualTo(2);
        assertThat(b2.migration.current().settings()).isEqualTo(new MigrationSettings(Mode.SPLIT, 50, true));

        // every member stopped: the next cluster starts from the configuration of its first member
        a.stop();
        b2.stop();
        Member fresh = new Member(0, SPLIT_10, MigrationSource.CLUSTER);
        assertThat(fresh.migration.current().generation()).isEqualTo(1);
        assertThat(fresh.migration.current().settings()).isEqualTo(SPLIT_10);
    }

    @Test
    void aMemberOnItsOwnConfigurationIgnoresTheClusterAndChangesOnlyItself() {
        Member clustered = new Member(0, SPLIT_10, MigrationSource.CLUSTER);
        Member own = new Member(1, V1, MigrationSource.MEMBER);
        assertThat(own.migration.current().settings()).isEqualTo(V1);

        MigrationState local = own.migration.update(new MigrationSettings(Mode.V2, 0, false), ClusterMigration.ANY_GENERATION, "test");
        assertThat(local.generation()).isEqualTo(2);
        assertThat(own.migration.current()).isEqualTo(local);
        MigrationState cluster = clustered.migration.update(new MigrationSettings(Mode.SPLIT, 20, false),
                ClusterMigration.ANY_GENERATION, "test");
        // the clustered member's change is stored; the member-only one never looks
        assertThat(MigrationStateText.decode(clustered.hz.<String, String>getMap(ClusterMigration.MAP).get(ClusterMigration.KEY)))
                .isEqualTo(cluster);
        assertThat(clustered.migration.current()).isEqualTo(cluster);
        assertThat(own.migration.current()).isEqualTo(local);
        assertThat(own.applied).hasSize(2);
    }

    @Test
    void aLostStateIsStoredAgainFromWhatTheMembersApply() {
        Member a = new Member(0, V1, MigrationSource.CLUSTER);
        Member b = new Member(1, V1, MigrationSource.CLUSTER);
        MigrationState changed = a.migration.update(new MigrationSettings(Mode.SPLIT, 5, true), ClusterMigration.ANY_GENERATION, "admin");
        await(() -> b.migration.current().equals(changed), "b at the change");

        a.hz.getMap(ClusterMigration.MAP).remove(ClusterMigration.KEY);
        await(() -> changed.equals(stored(a)), "the state stored again");
        assertThat(a.migration.current()).isEqualTo(changed);
        assertThat(b.migration.current()).isEqualTo(changed);
    }

    @Test
    void anUnreadableStoredStateIsReportedAndKeepsTheAppliedOne() {
        Member a = new Member(0, SPLIT_10, MigrationSource.CLUSTER);
        Member b = new Member(1, V1, MigrationSource.CLUSTER);
        MigrationState before = b.migration.current();
        List<MigrationState> appliedOnA = List.copyOf(a.applied);
        List<MigrationState> appliedOnB = List.copyOf(b.applied);
        // The report ClusterMigration makes (its decode): one ERROR line per member while the text stays stored,
        // "the cluster's migration state is unreadable, keeping generation <g>: <the reason>".
        List<String[]> reports = new CopyOnWriteArrayList<>(); // {thread, level, message}
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                String message = r instanceof ExtLogRecord ext ? ext.getFormattedMessage() : r.getMessage();
                if (message != null && message.contains("migration state is unreadable")) {
                    reports.add(new String[] {Thread.currentThread().getName(), r.getLevel().getName(), message});
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        CLUSTER_MIGRATION_LOG.addHandler(capture);
        try {
            a.hz.<String, String>getMap(ClusterMigration.MAP).put(ClusterMigration.KEY, "rm -rf /");
            // both members' followers read it (entry event or resync) and report it
            await(() -> reports.stream().map(r -> r[0]).collect(Collectors.toSet())
                    .containsAll(Set.of(followerName(0), followerName(1))), "a report from each member's follower");
            // more reads of the same text: further resyncs, and three reads on demand on each member
            long end = System.nanoTime() + 3 * ClusterMigration.RESYNC.toNanos();
            while (System.nanoTime() < end) {
                assertThat(b.migration.current()).isEqualTo(before);
                Thread.yield();
            }
            for (int i = 0; i < 3; i++) {
                assertThat(a.migration.latest()).isEqualTo(before);
                assertThat(b.migration.latest()).isEqualTo(before);
            }
            // nothing was applied on either member: each keeps the state it applied
            assertThat(a.applied).isEqualTo(appliedOnA);
            assertThat(b.applied).isEqualTo(appliedOnB);
            // reported once per member, whatever the number of reads
            assertThat(reports).as("reports (thread, level, message): %s", reports.stream().map(List::of).toList())
                    .extracting(r -> r[0]).containsExactlyInAnyOrder(followerName(0), followerName(1));
            for (String[] r : reports) {
                assertThat(r[1]).isEqualTo("ERROR");
                assertThat(r[2]).isEqualTo("ketama: the cluster's migration state is unreadable, keeping generation "
                        + before.generation() + ": " + decodeError("rm -rf /"));
                assertThat(r[2]).contains("'rm -rf /'");
            }

            MigrationState next = b.migration.update(V1, ClusterMigration.ANY_GENERATION, "admin");
            assertThat(next.generation()).isEqualTo(before.generation() + 1);
            await(() -> a.migration.current().equals(next), "a follows the repaired state");
            assertThat(reports).as("the repair reports nothing more").hasSize(2);
        } finally {
            CLUSTER_MIGRATION_LOG.removeHandler(capture);
        }
    }

    @Test
    void aMemberStartingWhileTheStateIsUnreadableFailsAndReplacesNothing() {
        Member a = new Member(0, SPLIT_10, MigrationSource.CLUSTER);
        Member b = new Member(1, V1, MigrationSource.CLUSTER);
        MigrationState applied = b.migration.update(V1, ClusterMigration.ANY_GENERATION, "admin"); // generation 2
        await(() -> a.migration.current().equals(applied), "a applies generation 2");
        List<MigrationState> appliedOnA = List.copyOf(a.applied);
        List<MigrationState> appliedOnB = List.copyOf(b.applied);
        IMap<String, String> map = a.hz.getMap(ClusterMigration.MAP);
        map.put(ClusterMigration.KEY, "rm -rf /");

        HazelcastInstance joinerHz = members.start(2);
        ClusterMigration joiner = new ClusterMigration(joinerHz, MigrationSource.CLUSTER, s -> { }, Clock.systemUTC());
        assertThatThrownBy(() -> joiner.start(SPLIT_10))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("migration state (Hazelcast map " + ClusterMigration.MAP + ", key " + ClusterMigration.KEY
                        + ") is unreadable: " + decodeError("rm -rf /"))
                .hasMessageContaining("Repair it with PUT /q/ketama/migration on a running member");
        // the joiner stored nothing: the text is as it was, and the running members keep generation 2
        assertThat(map.get(ClusterMigration.KEY)).isEqualTo("rm -rf /");
        long end = System.nanoTime() + 3 * ClusterMigration.RESYNC.toNanos();
        while (System.nanoTime() < end) {
            assertThat(a.migration.current()).isEqualTo(applied);
            assertThat(b.migration.current()).isEqualTo(applied);
            Thread.yield();
        }
        assertThat(a.applied).isEqualTo(appliedOnA);
        assertThat(b.applied).isEqualTo(appliedOnB);
        members.stop(joinerHz);

        // once repaired, a member starts and adopts the repaired state, whatever its configuration
        MigrationState repaired = b.migration.update(SPLIT_10, ClusterMigration.ANY_GENERATION, "admin");
        assertThat(repaired.generation()).isEqualTo(applied.generation() + 1);
        Member c = new Member(3, V1, MigrationSource.CLUSTER);
        assertThat(c.migration.current()).isEqualTo(repaired);
    }

    /** What {@link MigrationStateText#decode} says is wrong with {@code text}. */
    private static String decodeError(String text) {
        try {
            MigrationStateText.decode(text);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        throw new AssertionError("'" + text + "' decoded");
    }

    private static String followerName(int member) {
        return "ketama-migration-" + member;
    }

    @Test
    void storedTextRoundTripsAndBadTextIsRefusedWithTheReason() {
        MigrationState s = new MigrationState(new MigrationSettings(Mode.SPLIT, 12.345678, true), 42, "admin 10.0.0.1:5555 | odd",
                java.time.Instant.ofEpochMilli(1_700_000_000_123L));
        assertThat(MigrationStateText.decode(MigrationStateText.encode(s))).isEqualTo(s);
        assertThatThrownBy(() -> MigrationStateText.decode("2|1|v1|0|false|0|x")).hasMessageContaining("not a format-1");
        assertThatThrownBy(() -> MigrationStateText.decode("1|1|v3|0|false|0|x")).hasMessageContaining("v1, v2, split");
        assertThatThrownBy(() -> MigrationStateText.decode("1|1|v1|200|false|0|x")).hasMessageContaining("from 0 to 100");
        assertThatThrownBy(() -> MigrationStateText.decode("1|0|v1|0|false|0|x")).hasMessageContaining("generation must be >= 1");
        assertThatThrownBy(() -> MigrationStateText.decode("1|1|v1|0|yes|0|x")).hasMessageContaining("shadow must be true or false");
    }

    private static MigrationState stored(Member m) {
        String text = m.hz.<String, String>getMap(ClusterMigration.MAP).get(ClusterMigration.KEY);
        return text == null ? null : MigrationStateText.decode(text);
    }
}
