package io.ketama.load.faults;

import static io.ketama.load.faults.Cluster5.everyone;
import static io.ketama.load.faults.Cluster5.isolated;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The figures of made-up runs whose right answers are known: an isolation that heals well, and one that flaps. */
class ViewFiguresTest {

    private final FaultPlan plan = new FaultPlan(5, 30, 20, 3, 5);
    private final Fault isolate3 = plan.fault(FaultKind.ISOLATE, 3);

    /** Inject at 10 s; the sides drop each other at 21 s; heal at 40 s; the rings are whole at 45 s and stay so. */
    private List<PollRound> healsWell() {
        return new Cluster5().rounds(0, 21_000, everyone(), 1).rounds(21_000, 45_000, isolated(3), 1)
                .rounds(45_000, 70_000, everyone(), 1).build();
    }

    @Test
    void anIsolationThatHealsWell() {
        FaultWindow w = new FaultWindow(isolate3, 10_000, 40_000, 65_000, List.of());
        // Hazelcast logged a merge while the fault lasted (at 30 s) and one after the heal (at 44 s)
        ViewFigures v = ViewFigures.of(w, healsWell(), Cluster5.ADDRESSES, Cluster5.KEYS, 15_000, List.of(30_000L, 44_000L));
        assertThat(v.mergesDuringFault()).isEqualTo(1);
        assertThat(v.droppedAfterInject()).containsExactly(11_000L, 11_000L);
        assertThat(v.firstRingChangeAfterInject()).isEqualTo(11_000);
        assertThat(v.settledAfterInject()).isEqualTo(11_000);
        // m3 names itself the owner, the others m1: two owners from 21 s until the merge at 45 s
        assertThat(v.disagreeDuringMillis()).isEqualTo(19_000);
        assertThat(v.disagreeAfterHealMillis()).isEqualTo(5_000);
        assertThat(v.emptyRingPolls()).isZero();
        assertThat(v.hazelcastMergeAfterHeal()).isEqualTo(4_000);
        assertThat(v.mergedAfterHeal()).isEqualTo(5_000);
        assertThat(v.mergeAfterHeal()).isEqualTo(4_000);
        assertThat(v.agreedAfterHeal()).isEqualTo(5_000);
        assertThat(v.settledAfterHeal()).isTrue();
        assertThat(v.rebuildsAfterHeal()).isEqualTo(5); // each member once, at the merge
        assertThat(v.rebuildsInQuietWindow()).isZero();
    }

    @Test
    void anIsolationThatHealsIntoAFlapNeverSettles() {
        // after the heal m3 joins and leaves the others' rings every second, for as long as it is watched
        Cluster5 c = new Cluster5().rounds(0, 21_000, everyone(), 1).rounds(21_000, 41_000, isolated(3), 2);
        for (long at = 41_000; at < 90_000; at += 500) {
            boolean in = (at / 1000) % 2 == 0;
            c.round(at, m -> m == 3 ? Cluster5.ALL : in ? Cluster5.ALL : isolated(3).apply(m), 2);
        }
        FaultWindow w = new FaultWindow(isolate3, 10_000, 40_000, 89_500, List.of());
        ViewFigures v = ViewFigures.of(w, c.build(), Cluster5.ADDRESSES, Cluster5.KEYS, 15_000, List.of());
        assertThat(v.hazelcastMergeAfterHeal()).isNull();
        assertThat(v.mergedAfterHeal()).isEqualTo(2_000); // whole for a moment, at 42 s
        assertThat(v.agreedAfterHeal()).isNull();
        assertThat(v.settledAfterHeal()).isFalse();
        assertThat(v.rebuildsInQuietWindow()).isGreaterThanOrEqualTo(4 * 14);
        assertThat(v.disagreeAfterHealMillis()).isGreaterThan(20_000);

        List<Verdict> verdicts = FaultFigures.judge(isolate3, requests(), v, List.of(), Bounds.stated(10_000, 10_000, 15_000));
        assertThat(verdicts).filteredOn(x -> !x.met()).extracting(Verdict::target)
                .containsExactly("every member agrees on owners and generation within 10 s of the merge", "no rebuild loop");
    }

    @Test
    void aPollThatHeardNothingIsNoEvidenceEitherWay() {
        // member 4's poll went unanswered every fourth round after the merge (a loaded machine): agreement still began at 45 s
        Cluster5 c = new Cluster5().rounds(0, 21_000, everyone(), 1).rounds(21_000, 45_000, isolated(3), 1);
        for (long at = 45_000; at < 70_000; at += 500) {
            boolean silent = at % 2_000 == 500;
            c.round(at, m -> m == 4 && silent ? null : Cluster5.ALL, 1);
        }
        FaultWindow w = new FaultWindow(isolate3, 10_000, 40_000, 65_000, List.of());
        assertThat(ViewFigures.of(w, c.build(), Cluster5.ADDRESSES, Cluster5.KEYS, 15_000, List.of()).agreedAfterHeal()).isEqualTo(5_000);
    }

    @Test
    void aMemberThatFallsSilentForGoodLeavesTheClusterUnsettled() {
        Cluster5 c = new Cluster5().rounds(0, 21_000, everyone(), 1).rounds(21_000, 45_000, isolated(3), 1)
                .rounds(45_000, 47_000, everyone(), 1).rounds(47_000, 70_000, m -> m == 5 ? null : Cluster5.ALL, 1);
        FaultWindow w = new FaultWindow(isolate3, 10_000, 40_000, 65_000, List.of());
        assertThat(ViewFigures.of(w, c.build(), Cluster5.ADDRESSES, Cluster5.KEYS, 15_000, List.of()).agreedAfterHeal()).isNull();
    }

    @Test
    void agreementThatBeganTooLateToLastTheQuietPeriodIsNotSettled() {
        List<PollRound> rounds = healsWell();
        FaultWindow w = new FaultWindow(isolate3, 10_000, 40_000, 55_000, List.of()); // 10 s of agreement, 15 s asked
        assertThat(ViewFigures.of(w, rounds, Cluster5.ADDRESSES, Cluster5.KEYS, 15_000, List.of()).agreedAfterHeal()).isNull();
    }

    @Test
    void anEmptyRingIsCounted() {
        Cluster5 c = new Cluster5().rounds(0, 10_000, everyone(), 1).round(10_500, m -> m == 3 ? Set.of() : Cluster5.ALL, 1)
                .rounds(11_000, 40_000, everyone(), 1);
        FaultWindow w = new FaultWindow(plan.fault(FaultKind.BLIP, 3), 10_000, 13_000, 39_500, List.of());
        ViewFigures v = ViewFigures.of(w, c.build(), Cluster5.ADDRESSES, Cluster5.KEYS, 15_000, List.of());
        assertThat(v.emptyRingPolls()).isEqualTo(1);
        assertThat(v.emptyRingMembers()).containsExactly(3);
        assertThat(v.firstRingChangeAfterInject()).isEqualTo(500);
    }

    @Test
    void aGenerationThatDiffersAfterTheHealKeepsTheClusterUnsettled() {
        Cluster5 c = new Cluster5().rounds(0, 40_000, everyone(), 1);
        for (long at = 40_000; at < 70_000; at += 500) {
            c.round(at, everyone(), 2);
        }
        List<PollRound> rounds = new java.util.ArrayList<>(c.build());
        // m5 stays on generation 1 throughout: same rings, same owners, another migration state
        rounds.replaceAll(r -> {
            java.util.Map<Integer, MemberView> views = new java.util.LinkedHashMap<>(r.views());
            MemberView m5 = views.get(5);
            views.put(5, new MemberView(5, true, m5.ring(), m5.rebuildGeneration(), 1, 0, m5.owners(), null));
            return new PollRound(r.at(), views);
        });
        FaultWindow w = new FaultWindow(isolate3, 10_000, 40_000, 69_500, List.of());
        assertThat(ViewFigures.of(w, rounds, Cluster5.ADDRESSES, Cluster5.KEYS, 15_000, List.of()).agreedAfterHeal()).isNull();
    }

    private static RequestFigures requests() {
        RequestFigures.Counts none = new RequestFigures.Counts(0, 0, 0, 0, 0, 0);
        return new RequestFigures(new RequestFigures.Counts(100, 100, 0, 0, 0, 20), none, none, 0, 0, 0, 0, List.of(), java.util.Map.of(), false);
    }
}
