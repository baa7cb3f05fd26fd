package io.ketama.router.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.testing.Await;
import io.ketama.testing.LoopbackHazelcast;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The load board between three real Hazelcast members in this JVM: each learns the cluster's rate
 * and weight from the others' entries, takes its bound from them (weights count), tells which
 * members are full; an entry that stops moving is left out, a closed board's entry goes, and the
 * entry of a member that died without a word is removed by the oldest member.
 */
class LoadBoardTest {

    private static final LoadSettings ON = new LoadSettings(true, 1.25, Duration.ofMillis(500), 0);

    private final List<HazelcastInstance> started = new ArrayList<>();

    @AfterEach
    void stop() {
        started.forEach(HazelcastInstance::shutdown);
    }

    private record Member(HazelcastInstance hazelcast, OwnerLoad load, LoadBoard board, AtomicInteger weight, AtomicInteger ticks) {
        /** Ends a window on its board: its entry's sequence is then the count of its windows. */
        void tick() {
            board.tick();
            ticks.incrementAndGet();
        }

        String key() {
            return hazelcast.getCluster().getLocalMember().getUuid().toString();
        }

        void serve(int n) {
            for (int i = 0; i < n; i++) {
                load.serve();
            }
        }

        int entries() {
            return hazelcast.getReplicatedMap(LoadBoard.MAP).size();
        }
    }

    private Member member(String cluster, List<Integer> join, int weight) {
        HazelcastInstance hz = Hazelcast.newHazelcastInstance(LoopbackHazelcast.anyFreePort(cluster, join));
        started.add(hz);
        OwnerLoad load = new OwnerLoad(ON, null);
        AtomicInteger w = new AtomicInteger(weight);
        return new Member(hz, load, LoadBoard.manual(hz, load, w::get), w, new AtomicInteger());
    }

    /**
     * A window in which a, b, c serve as given, ticked on every board, then waited for until every
     * member holds every member's entry of it (a board writes on a thread of its own, and replication
     * takes its time).
     */
    private static void window(List<Member> members, int... served) {
        for (int i = 0; i < members.size(); i++) {
            members.get(i).serve(served[i]);
            members.get(i).tick();
        }
        Await.until(() -> members.stream().allMatch(at -> members.stream().allMatch(of -> sequence(at, of.key()) == of.ticks().get())),
                Duration.ofSeconds(30), () -> "every member to hold every member's latest entry");
    }

    @Test
    void eachMemberLearnsTheClustersLoadAndTakesItsBoundFromIt() {
        String cluster = LoopbackHazelcast.clusterName("load-board");
        Member a = member(cluster, List.of(), 1);
        int port = a.hazelcast().getCluster().getLocalMember().getAddress().getPort();
        Member b = member(cluster, List.of(port), 2);
        Member c = member(cluster, List.of(port), 1);
        List<Member> all = List.of(a, b, c);
        Await.until(() -> all.stream().allMatch(m -> m.hazelcast().getCluster().getMembers().size() == 3), Duration.ofSeconds(60),
                () -> "three members");
        window(all, 300, 100, 100);
        // the second window reads every member's first (or second: the same counts) entry
        for (int round = 0; round < 2; round++) {
            window(all, 300, 100, 100);
        }
        for (Member m : all) {
            LoadView v = m.board().view();
            assertThat(v.clusterRate()).as("L: 500 answers a window of 0.5 s").isEqualTo(1_000.0);
            assertThat(v.totalWeight()).as("W").isEqualTo(4);
            assertThat(v.members()).hasSize(3);
            assertThat(v.full()).as("a serves 600 a second, past 1.25 x 1,000 x 1 / 4 = 312.5")
                    .containsExactly(a.hazelcast().getCluster().getLocalMember().getUuid());
            assertThat(v.hasRoom(b.hazelcast().getCluster().getLocalMember().getUuid()))
                    .as("b of weight 2: 200 a second under 625").isTrue();
        }
        assertThat(a.load().hardBound()).as("ceil(1.25 x 501 x 1 / 4)").isEqualTo(157);
        assertThat(b.load().hardBound()).as("weight 2: ceil(1.25 x 501 x 2 / 4)").isEqualTo(314);
        assertThat(a.load().softBound()).as("ceil(125.25 x 2.25 / 2)").isEqualTo(141);

        // a member off the rings (weight 0): unbounded itself, left out of W
        b.weight().set(0);
        window(all, 300, 100, 100);
        window(all, 300, 100, 100);
        assertThat(b.load().hardBound()).isEqualTo(Long.MAX_VALUE);
        assertThat(a.board().view().totalWeight()).isEqualTo(2);
    }

    private static long sequence(Member at, String key) {
        long[] v = (long[]) at.hazelcast().getReplicatedMap(LoadBoard.MAP).get(key);
        return v == null ? -1 : v[1];
    }

    @Test
    void staleClosedAndDeadMembersStopCounting() {
        String cluster = LoopbackHazelcast.clusterName("load-board-stale");
        Member a = member(cluster, List.of(), 1);
        int port = a.hazelcast().getCluster().getLocalMember().getAddress().getPort();
        Member b = member(cluster, List.of(port), 1);
        Member c = member(cluster, List.of(port), 1);
        List<Member> all = List.of(a, b, c);
        Await.until(() -> all.stream().allMatch(m -> m.hazelcast().getCluster().getMembers().size() == 3), Duration.ofSeconds(60),
                () -> "three members");
        window(all, 100, 100, 100);
        window(all, 100, 100, 100);
        assertThat(a.board().view().members()).hasSize(3);

        // c stops publishing (paused): a ticked before it held c's entry of the last window, so it reads it in
        // its next window; three windows after that c no longer counts
        for (int i = 0; i <= LoadBoard.STALE_WINDOWS; i++) {
            b.tick();
            // b writes on a thread of its own: a window of a's sees b's new entry only once it is replicated
            Await.until(() -> sequence(a, b.key()) == b.ticks().get(), Duration.ofSeconds(30), () -> "b's entry to move at a");
            a.tick();
        }
        assertThat(a.board().view().members()).as("c's entry has not moved for three windows").hasSize(2);
        assertThat(a.board().view().totalWeight()).isEqualTo(2);

        // b closes its board: its entry goes at once
        b.board().close();
        Await.until(() -> a.entries() == 2, Duration.ofSeconds(30), () -> "b's entry to go");

        // c dies without a word: its entry stays until the oldest member (a) sweeps it as stale
        c.hazelcast().getLifecycleService().terminate();
        started.remove(c.hazelcast());
        Await.until(() -> a.hazelcast().getCluster().getMembers().size() == 2, Duration.ofSeconds(60), () -> "c to leave");
        a.tick();
        Await.until(() -> a.entries() == 1, Duration.ofSeconds(30), () -> "c's entry swept, " + a.entries() + " left");
        assertThat(a.board().view().members()).hasSize(1);
        a.board().close();
    }
}
