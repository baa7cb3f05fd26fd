package io.ketama.quarkus.runtime;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.core.HashStyle;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.ServingState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The quiet period of a drain when no other member routes keys: a member alone in its cluster (or
 * the side of a split it is alone on) still has clients, which sent requests before its readiness
 * went down, so it keeps serving for the quiet period when it was on its own rings; a member that
 * never was (it stops before it opened) does not wait. Before, a lone member stopped at once and
 * refused a client's request in flight ({@code ClusterControlIT}: "member 1: no answer", after a
 * rolling restart left that member alone for a few seconds).
 */
class DrainQuietPeriodTest {

    private final LoopbackMembers members = new LoopbackMembers("ketama-drain-quiet", 1);

    @AfterEach
    void stop() {
        members.close();
    }

    @Test
    void aLoneMemberThatServedKeepsServingForTheQuietPeriod() throws InterruptedException {
        HazelcastInstance hz = members.start(0);
        MemberBoard board = new MemberBoard(hz, reason -> { });
        try {
            board.start(new MemberStatus(ServingState.STARTING, 0, Set.of()));
            ServingGate gate = new ServingGate(board, hz.getCluster()::getMembers, ringsAsTheRebuildWould(hz, board));
            gate.open();
            Duration quiet = Duration.ofMillis(800);
            long start = System.nanoTime();
            ServingGate.DrainReport report = gate.drain(Duration.ofSeconds(10), quiet);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(report.complete()).isTrue();
            assertThat(report.confirmed()).as("no other member").isZero();
            assertThat(took).as("the drain of a member that was on its own rings").isGreaterThanOrEqualTo(quiet);
        } finally {
            board.close();
        }
    }

    @Test
    void aMemberThatNeverServedDoesNotWait() throws InterruptedException {
        HazelcastInstance hz = members.start(0);
        MemberBoard board = new MemberBoard(hz, reason -> { });
        try {
            board.start(new MemberStatus(ServingState.STARTING, 0, Set.of()));
            ServingGate gate = new ServingGate(board, hz.getCluster()::getMembers, ringsAsTheRebuildWould(hz, board));
            Duration quiet = Duration.ofSeconds(20);
            long start = System.nanoTime();
            ServingGate.DrainReport report = gate.drain(Duration.ofSeconds(10), quiet);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(report.complete()).isTrue();
            assertThat(took).as("the drain of a member that never was on its rings").isLessThan(quiet);
        } finally {
            board.close();
        }
    }

    /** This member's rings as a rebuild makes them from its board status: on them while serving, off otherwise. */
    private static Supplier<RingSnapshot> ringsAsTheRebuildWould(HazelcastInstance hz, MemberBoard board) {
        RingBuilder builder = new RingBuilder(new RingSettings(HashStyle.NGINX, 16));
        Member local = hz.getCluster().getLocalMember();
        RingSnapshot on = builder.build(List.of(local), local, 1, "serving");
        RingSnapshot off = builder.build(List.of(), local, 2, "draining");
        return () -> board.mine().state() == ServingState.SERVING ? on : off;
    }
}
