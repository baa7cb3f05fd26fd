package io.ketama.quarkus.runtime;

import io.ketama.quarkus.ServingState;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link MemberBoard#snapshot}, what a rebuild takes: the board as this member heard it (entry
 * events, polls), with remote reads only of members not heard from yet; and the rule that keeps a
 * read from taking back what a newer entry event said. Gets of the board are counted on the
 * entries' owners by an interceptor, with both boards closed (no polls, no events) where a count
 * must be exact.
 */
class MemberBoardSnapshotTest {

    private static final AtomicInteger GETS = new AtomicInteger();
    private final LoopbackMembers members = new LoopbackMembers("ketama-board-snapshot", 2);

    @AfterEach
    void stop() {
        members.close();
    }

    @Test
    void aSnapshotReadsOnlyTheMembersNotHeardFromYet() {
        HazelcastInstance one = members.start(0);
        HazelcastInstance two = members.start(1);
        LoopbackMembers.await(() -> one.getCluster().getMembers().size() == 2, "two members");
        MemberBoard boardOne = new MemberBoard(one, reason -> { });
        MemberBoard boardTwo = new MemberBoard(two, reason -> { });
        MemberBoard unstarted = new MemberBoard(one, reason -> { });
        Member memberTwo = two.getCluster().getLocalMember();
        try {
            boardOne.start(new MemberStatus(ServingState.SERVING, 1, Set.of()));
            boardTwo.start(new MemberStatus(ServingState.STARTING, 1, Set.of()));
            boardTwo.update(s -> new MemberStatus(ServingState.DRAINING, 3, Set.of()));
            boardTwo.flush();
            LoopbackMembers.await(() -> state(boardOne.known(one.getCluster().getMembers()), memberTwo) == ServingState.DRAINING,
                    "member two's change heard by member one");
        } finally {
            boardOne.close(); // no more polls or events: every get counted below is the call's own
            boardTwo.close();
        }
        IMap<String, String> map = one.getMap(MemberBoard.MAP);
        map.addInterceptor(new CountingGets());
        Set<Member> both = one.getCluster().getMembers();

        GETS.set(0);
        Map<UUID, MemberStatus> heard = boardOne.snapshot(both);
        assertThat(GETS.get()).as("gets of the board for a snapshot of members heard from").isZero();
        assertThat(state(heard, memberTwo)).isEqualTo(ServingState.DRAINING);
        assertThat(heard.get(memberTwo.getUuid()).migrationGeneration()).isEqualTo(3);
        assertThat(state(heard, one.getCluster().getLocalMember())).as("its own, as it stands here").isEqualTo(ServingState.SERVING);

        GETS.set(0);
        boardOne.read(both);
        assertThat(GETS.get()).as("a read of the same members reads the other's entry").isEqualTo(1);

        GETS.set(0);
        Map<UUID, MemberStatus> fresh = unstarted.snapshot(both);
        assertThat(GETS.get()).as("gets for a snapshot by a board that heard nothing yet: the other member's entry").isEqualTo(1);
        assertThat(state(fresh, memberTwo)).as("read remotely").isEqualTo(ServingState.DRAINING);
    }

    @Test
    void aReadThatBeganBeforeAnEntryEventKeepsWhatTheEventSaid() {
        HazelcastInstance one = members.start(0);
        HazelcastInstance two = members.start(1);
        LoopbackMembers.await(() -> one.getCluster().getMembers().size() == 2, "two members");
        MemberBoard boardOne = new MemberBoard(one, reason -> { });
        MemberBoard boardTwo = new MemberBoard(two, reason -> { });
        Member memberTwo = two.getCluster().getLocalMember();
        try {
            boardOne.start(new MemberStatus(ServingState.SERVING, 1, Set.of()));
            boardTwo.start(new MemberStatus(ServingState.SERVING, 1, Set.of()));
            LoopbackMembers.await(() -> state(boardOne.known(one.getCluster().getMembers()), memberTwo) == ServingState.SERVING,
                    "member two heard by member one");

            long began = boardOne.readBegins(); // a read begins and finds SERVING, its answer late
            boardTwo.update(s -> new MemberStatus(ServingState.DRAINING, 2, Set.of()));
            boardTwo.flush();
            // heard by its event, not only by a poll (a poll's read is no event: only an event outranks a read)
            LoopbackMembers.await(() -> boardOne.readBegins() > began
                    && state(boardOne.known(one.getCluster().getMembers()), memberTwo) == ServingState.DRAINING,
                    "the entry event of member two's drain");
            boardOne.rememberRead(memberTwo.getUuid(), new MemberStatus(ServingState.SERVING, 1, Set.of()), began);
            assertThat(state(boardOne.snapshot(one.getCluster().getMembers()), memberTwo))
                    .as("the late answer of a read that began before the event").isEqualTo(ServingState.DRAINING);

            // the control, on a board that hears nothing (not started: no events, no polls): with no event
            // since it began, what a read found is what the board holds
            MemberBoard quiet = new MemberBoard(one, reason -> { });
            quiet.rememberRead(memberTwo.getUuid(), new MemberStatus(ServingState.SERVING, 4, Set.of()), quiet.readBegins());
            MemberStatus taken = quiet.snapshot(one.getCluster().getMembers()).get(memberTwo.getUuid());
            assertThat(taken.state()).as("what a read found, no event since it began").isEqualTo(ServingState.SERVING);
            assertThat(taken.migrationGeneration()).isEqualTo(4);
            quiet.close();
        } finally {
            boardOne.close();
            boardTwo.close();
        }
    }

    private static ServingState state(Map<UUID, MemberStatus> statuses, Member m) {
        MemberStatus s = statuses.get(m.getUuid());
        return s == null ? null : s.state();
    }

    /** Counts the gets of the board on the entries' owners. */
    static final class CountingGets extends GetInterceptor {
        @Override
        void onGet() {
            GETS.incrementAndGet();
        }
    }
}
