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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link MemberBoard#known}: what the admin plane shows of each member answers from what this
 * member last heard, while every remote read of the board hangs (an entry's owner paused or cut
 * off and not yet dropped). Before, the admin plane's view read the board remotely and waited a
 * second per silent owner on top of the adopted configuration's second: PauseIT's client gave up
 * on it after 2 s and saw a running member as "no answer".
 */
class MemberBoardKnownTest {

    private static final AtomicBoolean HANG = new AtomicBoolean();
    private final LoopbackMembers members = new LoopbackMembers("ketama-board-known", 2);

    @AfterEach
    void stop() {
        HANG.set(false);
        members.close();
    }

    @Test
    void knownAnswersFromWhatWasLastHeardWhileEveryRemoteReadHangs() {
        HazelcastInstance one = members.start(0);
        HazelcastInstance two = members.start(1);
        LoopbackMembers.await(() -> one.getCluster().getMembers().size() == 2, "two members");
        MemberBoard boardOne = new MemberBoard(one, reason -> { });
        MemberBoard boardTwo = new MemberBoard(two, reason -> { });
        try {
            boardOne.start(new MemberStatus(ServingState.SERVING, 1, Set.of()));
            boardTwo.start(new MemberStatus(ServingState.SERVING, 1, Set.of()));
            Member memberTwo = two.getCluster().getLocalMember();
            LoopbackMembers.await(() -> status(boardOne, one, memberTwo) != null, "member two known to member one");

            boardTwo.update(s -> new MemberStatus(ServingState.DRAINING, 2, Set.of()));
            boardTwo.flush();
            LoopbackMembers.await(() -> status(boardOne, one, memberTwo).state() == ServingState.DRAINING,
                    "member two's change heard by member one");

            IMap<String, String> map = one.getMap(MemberBoard.MAP);
            map.addInterceptor(new HangingGets());
            HANG.set(true);
            CompletableFuture<String> hanging = map.getAsync(memberTwo.getUuid().toString()).toCompletableFuture();

            long readStart = System.nanoTime();
            Map<UUID, MemberStatus> read = boardOne.read(one.getCluster().getMembers());
            long readNanos = System.nanoTime() - readStart;
            long knownStart = System.nanoTime();
            MemberStatus known = status(boardOne, one, memberTwo);
            long knownNanos = System.nanoTime() - knownStart;

            assertThat(hanging).as("remote reads of the board were held all along").isNotDone();
            assertThat(readNanos).as("a remote read waits out its stall bound").isGreaterThanOrEqualTo(MemberBoard.READ_TIMEOUT.toNanos());
            assertThat(knownNanos).as("what is known answers without that wait (read took %d ms)", readNanos / 1_000_000)
                    .isLessThan(readNanos);
            assertThat(known.state()).isEqualTo(ServingState.DRAINING);
            assertThat(known.migrationGeneration()).isEqualTo(2);
            assertThat(read.get(memberTwo.getUuid())).as("the stalled read answers as last said").isEqualTo(known);
            assertThat(status(boardOne, one, one.getCluster().getLocalMember()).state()).as("its own, as it stands here")
                    .isEqualTo(ServingState.SERVING);
        } finally {
            HANG.set(false);
            boardOne.close();
            boardTwo.close();
        }
    }

    /** Holds every read of the board on its partition thread while {@link #HANG} is set. */
    static final class HangingGets extends GetInterceptor {
        @Override
        void onGet() {
            while (HANG.get()) {
                sleepQuietly();
            }
        }
    }

    private static MemberStatus status(MemberBoard board, HazelcastInstance hz, Member m) {
        Map<UUID, MemberStatus> known = board.known(hz.getCluster().getMembers());
        return known.get(m.getUuid());
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
