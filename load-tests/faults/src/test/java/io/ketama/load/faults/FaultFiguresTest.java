package io.ketama.load.faults;

import static io.ketama.load.faults.Cluster5.everyone;
import static io.ketama.load.faults.Cluster5.isolated;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A whole fault's figures and the targets judged on them, from made-up requests and polls. */
class FaultFiguresTest {

    private final FaultPlan plan = new FaultPlan(5, 30, 20, 3, 5);
    private final Bounds bounds = Bounds.stated(10_000, 10_000, 15_000);

    private static List<RequestRecord> steadyLoad(long from, long to) {
        List<RequestRecord> rs = new ArrayList<>();
        for (long at = from; at < to; at += 10) {
            int entry = (int) (at / 10 % 5) + 1;
            rs.add(new RequestRecord(at, entry, "k" + at % 97, 200, 3, "m1", "m1", "HIT", false, null, null));
        }
        return rs;
    }

    @Test
    void anIsolationThatHealsWellWithTheMinoritysChangeRefusedMeetsEveryTarget() {
        Fault f = plan.fault(FaultKind.ISOLATE, 3);
        List<PollRound> rounds = new Cluster5().rounds(0, 21_000, everyone(), 1).rounds(21_000, 45_000, isolated(3), 2)
                .rounds(45_000, 70_000, everyone(), 2).build();
        List<AdminChange> changes = List.of(new AdminChange(1, "majority", 22_000, 0.0, 200, 2, "{}").onSide(4, 3),
                new AdminChange(3, "minority", 22_100, 63.0, 503, -1, "{\"type\":\"urn:ketama:problem:too-few-members\"}").onSide(1, 3));
        FaultWindow w = new FaultWindow(f, 10_000, 40_000, 65_000, changes);
        FaultFigures figures = FaultFigures.analyze(w, steadyLoad(0, 70_000), rounds, Cluster5.ADDRESSES, Cluster5.KEYS, bounds,
                List.of(44_000L));
        assertThat(figures.verdicts()).allSatisfy(v -> assertThat(v.met()).as(v.target() + ": " + v.detail()).isTrue());
        assertThat(figures.verdicts()).extracting(Verdict::target).contains("no acknowledged change lost",
                "a side below the quorum acknowledges no change", "cut-off member: served or fast 503, never a hang",
                "merged within the bound");
        // m3's requests are its own class until the rings are whole again at 45 s, then connected
        assertThat(figures.requests().cutOff().total()).isEqualTo(700); // every 5th of the requests sent from 10 s to 45 s
        assertThat(figures.requests().connected().total()).isEqualTo(5_501 - 700); // 10 s to 65 s, both ends included
        assertThat(figures.allMet()).isTrue();
    }

    @Test
    void aLostChangeAFailedRequestAndASlowDetectionAreEachMissed() {
        Fault f = plan.fault(FaultKind.ISOLATE, 3);
        // the sides only drop each other 20 s after the inject, past the 15 s bound
        List<PollRound> rounds = new Cluster5().rounds(0, 30_000, everyone(), 1).rounds(30_000, 45_000, isolated(3), 2)
                .rounds(45_000, 70_000, everyone(), 2).build();
        List<AdminChange> changes = List.of(new AdminChange(1, "majority", 31_000, 13.0, 200, 2, "{}").onSide(4, 3),
                new AdminChange(3, "minority", 31_100, 63.0, 200, 2, "{}").onSide(1, 3));
        List<RequestRecord> load = new ArrayList<>(steadyLoad(0, 70_000));
        load.add(new RequestRecord(20_001, 2, "x", 0, 15_000, null, null, null, false, null, "timed out"));
        FaultWindow w = new FaultWindow(f, 10_000, 40_000, 65_000, changes);
        FaultFigures figures = FaultFigures.analyze(w, load, rounds, Cluster5.ADDRESSES, Cluster5.KEYS, bounds, List.of());
        assertThat(figures.verdicts()).filteredOn(v -> !v.met()).extracting(Verdict::target).containsExactly(
                "0 failed entering on connected members", "unreachable members leave m1,m2,m4,m5's rings in time",
                "no acknowledged change lost", "a side below the quorum acknowledges no change");
        // the cut-off m3's own view has a bound of its own: 2 x 10 s + 5 s
        assertThat(figures.verdicts()).filteredOn(v -> v.target().equals("the cut-off m3 drops the members it cannot reach in time"))
                .singleElement().satisfies(v -> assertThat(v.detail()).isEqualTo("20.0 s, bound 25.0 s"));
        // the final state is generation 2 at 0 %: neither change is the cluster's state (Cluster5 reports share 0)
        assertThat(figures.admin()).allSatisfy(a -> assertThat(a.lost()).isTrue());
    }

    @Test
    void aCutOffMemberThatKeepsTheOthersPastItsOwnBoundIsMissed() {
        Fault f = plan.fault(FaultKind.ISOLATE, 3);
        // both sides drop each other 27 s after the inject: past 15 s for the majority and 25 s for m3
        List<PollRound> rounds = new Cluster5().rounds(0, 37_000, everyone(), 1).rounds(37_000, 45_000, isolated(3), 2)
                .rounds(45_000, 70_000, everyone(), 2).build();
        FaultWindow w = new FaultWindow(f, 10_000, 40_000, 65_000, List.of());
        FaultFigures figures = FaultFigures.analyze(w, steadyLoad(0, 70_000), rounds, Cluster5.ADDRESSES, Cluster5.KEYS, bounds, List.of(44_000L));
        assertThat(figures.verdicts()).filteredOn(v -> !v.met()).extracting(Verdict::target).containsExactly(
                "unreachable members leave m1,m2,m4,m5's rings in time", "the cut-off m3 drops the members it cannot reach in time");
    }

    @Test
    void aBlipThatChangesARingIsMissed() {
        Fault blip = plan.fault(FaultKind.BLIP, 2);
        List<PollRound> rounds = new Cluster5().rounds(0, 11_000, everyone(), 1).rounds(11_000, 12_000, isolated(2), 1)
                .rounds(12_000, 40_000, everyone(), 1).build();
        FaultWindow w = new FaultWindow(blip, 10_000, 13_000, 39_500, List.of());
        FaultFigures figures = FaultFigures.analyze(w, steadyLoad(0, 40_000), rounds, Cluster5.ADDRESSES, Cluster5.KEYS, bounds, List.of());
        assertThat(figures.verdicts()).filteredOn(v -> !v.met()).extracting(Verdict::target).containsExactly("a blip changes no ring");
        assertThat(figures.views().firstRingChangeAfterInject()).isEqualTo(1_000);

        List<PollRound> calm = new Cluster5().rounds(0, 40_000, everyone(), 1).build();
        assertThat(FaultFigures.analyze(w, steadyLoad(0, 40_000), calm, Cluster5.ADDRESSES, Cluster5.KEYS, bounds, List.of()).allMet())
                .isTrue();
    }

    @Test
    void aCutOffMemberThatHangsIsMissed() {
        Fault f = plan.fault(FaultKind.ISOLATE, 3);
        List<PollRound> rounds = new Cluster5().rounds(0, 21_000, everyone(), 1).rounds(21_000, 45_000, isolated(3), 1)
                .rounds(45_000, 70_000, everyone(), 1).build();
        List<RequestRecord> load = new ArrayList<>(steadyLoad(0, 70_000));
        load.add(new RequestRecord(25_003, 3, "y", 0, 15_000, null, null, null, false, null, "timed out"));
        FaultWindow w = new FaultWindow(f, 10_000, 40_000, 65_000, List.of());
        FaultFigures figures = FaultFigures.analyze(w, load, rounds, Cluster5.ADDRESSES, Cluster5.KEYS, bounds, List.of());
        assertThat(figures.verdicts()).filteredOn(v -> !v.met()).extracting(Verdict::target)
                .containsExactly("cut-off member: served or fast 503, never a hang");
        assertThat(figures.requests().connected().failed()).isZero();
    }
}
