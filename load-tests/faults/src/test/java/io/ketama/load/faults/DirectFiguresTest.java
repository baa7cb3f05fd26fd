package io.ketama.load.faults;

import static io.ketama.load.faults.Cluster5.everyone;
import static io.ketama.load.faults.Cluster5.isolated;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the direct client did with a fault's departed member, judged from made-up polls, attempts and client rings. */
class DirectFiguresTest {

    private static final long BOUND = 1_250;
    private final FaultPlan plan = new FaultPlan(5, 30, 20, 3, 5);
    private final Fault isolate3 = plan.fault(FaultKind.ISOLATE, 3);
    // the majority drops m3 at 21 s (11 s after the inject at 10 s); every ring is whole again at 45 s
    private final List<PollRound> rounds = new Cluster5().rounds(0, 21_000, everyone(), 1).rounds(21_000, 45_000, isolated(3), 1)
            .rounds(45_000, 70_000, everyone(), 1).build();
    private final FaultWindow window = new FaultWindow(isolate3, 10_000, 40_000, 65_000, List.of());
    private final ViewFigures views = ViewFigures.of(window, rounds, Cluster5.ADDRESSES, Cluster5.KEYS, 15_000, List.of());

    /** The client follows the majority: its rings drop m3 at 21.3 s and take it back at 44 s. */
    private static List<ClientRingSample> followingTheMajority() {
        return List.of(new ClientRingSample(0, Cluster5.ALL), new ClientRingSample(21_300, Set.of(1, 2, 4, 5)),
                new ClientRingSample(44_000, Cluster5.ALL));
    }

    private static List<DirectAttempt> toM3(long... at) {
        List<DirectAttempt> out = new ArrayList<>();
        for (long t : at) {
            out.add(new DirectAttempt(t, 3));
            out.add(new DirectAttempt(t, 1)); // another member's request at the same time: never counted
        }
        return out;
    }

    @Test
    void attemptsBeforeTheSidesDropAndTheBoundAreTheFailoversAndAfterItAreJudged() {
        // 12 s (before the drop), 22.2 s (within the bound of the 21 s drop); 22.3 s is past it
        DirectFigures d = DirectFigures.of(window, views, toM3(12_000, 22_200, 22_300, 39_000), followingTheMajority(), BOUND);
        assertThat(d.followed()).containsExactlyInAnyOrder(1, 2, 4, 5);
        assertThat(d.sideDroppedAfterInject()).isEqualTo(11_000);
        assertThat(d.clientDroppedAfterInject()).isEqualTo(11_300);
        assertThat(d.sentBeforeBound()).isEqualTo(2);
        assertThat(d.sentAfterBound()).isEqualTo(2);
        assertThat(d.examples()).containsExactly("m3 at 22300 ms", "m3 at 39000 ms");
        Verdict v = d.verdict(BOUND);
        assertThat(v.met()).isFalse();
        assertThat(v.detail()).startsWith("2 sent after, 2 before; it followed m1,m2,m4,m5");
    }

    @Test
    void afterTheHealAMemberTheClientsRingsHoldAgainIsBack() {
        // 44.5 s: after the heal (40 s), m3 back on the client's rings (44 s), before every ring was whole (45 s)
        DirectFigures d = DirectFigures.of(window, views, toM3(12_000, 44_500, 46_000), followingTheMajority(), BOUND);
        assertThat(d.sentAfterBound()).isZero();
        assertThat(d.sentBeforeBound()).isEqualTo(1);
        assertThat(d.verdict(BOUND).met()).isTrue();
    }

    @Test
    void aClientThatFollowedTheIsolatedMemberJudgesTheOthersAsDeparted() {
        List<ClientRingSample> alone = List.of(new ClientRingSample(0, Cluster5.ALL), new ClientRingSample(21_500, Set.of(3)));
        DirectFigures d = DirectFigures.of(window, views, List.of(new DirectAttempt(30_000, 3), new DirectAttempt(30_000, 4)), alone, BOUND);
        assertThat(d.followed()).containsExactly(3);
        assertThat(d.sentAfterBound()).as("m4, off m3's rings since 21 s").isEqualTo(1);
    }

    @Test
    void aClientWhoseRingsHeldNoSidesMembersMissesTheTarget() {
        List<ClientRingSample> stale = List.of(new ClientRingSample(0, Cluster5.ALL));
        DirectFigures d = DirectFigures.of(window, views, List.of(), stale, BOUND);
        assertThat(d.followed()).isEmpty();
        Verdict v = d.verdict(BOUND);
        assertThat(v.met()).isFalse();
        assertThat(v.detail()).contains("held m1,m2,m3,m4,m5 at the heal");
    }

    @Test
    void aFaultThatMovesNoMemberOffTheRingsHasNoFigures() {
        FaultWindow slow = new FaultWindow(plan.fault(FaultKind.SLOW, 2), 10_000, 40_000, 65_000, List.of());
        assertThat(DirectFigures.of(slow, views, toM3(30_000), followingTheMajority(), BOUND)).isNull();
    }
}
