package io.ketama.load.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FaultPlanTest {

    private final FaultPlan plan = new FaultPlan(5, 30, 20, 3, 5);

    @Test
    void isolateCutsOneMemberFromEveryOtherAndHealsByMending() {
        Fault f = plan.fault(FaultKind.ISOLATE, 3);
        assertThat(f.label()).isEqualTo("isolate m3");
        assertThat(f.inject()).containsExactly("cut 3:1 3:2 3:4 3:5");
        assertThat(f.heal()).containsExactly("mend");
        assertThat(f.sides()).containsExactly(Set.of(1, 2, 4, 5), Set.of(3));
        assertThat(f.cutOff()).containsExactly(3);
        assertThat(f.impaired()).isEmpty();
        assertThat(f.holdMillis()).isEqualTo(30_000);
        assertThat(f.adminChanges()).isTrue();
        assertThat(f.connected(1)).isTrue();
        assertThat(f.connected(3)).isFalse();
    }

    @Test
    void aSplitOfFiveIsThreeAgainstTwoWithEveryPairAcrossCut() {
        Fault f = plan.fault(FaultKind.SPLIT, 5);
        assertThat(f.sides()).containsExactly(Set.of(2, 3, 4), Set.of(5, 1));
        assertThat(f.cutOff()).containsExactlyInAnyOrder(5, 1);
        assertThat(f.label()).isEqualTo("split m2,m3,m4 | m1,m5");
        List<String> pairs = Arrays.asList(f.inject().get(0).substring("cut ".length()).split(" "));
        assertThat(pairs).hasSize(6);
        Set<Set<Integer>> across = new HashSet<>();
        for (String p : pairs) {
            int a = Integer.parseInt(p.split(":")[0]);
            int b = Integer.parseInt(p.split(":")[1]);
            assertThat(f.sideOf(a)).isNotEqualTo(f.sideOf(b));
            across.add(Set.of(a, b));
        }
        assertThat(across).hasSize(6);
    }

    @Test
    void aPartialPartitionCutsOnePairAndLeavesTheRingsToHazelcast() {
        Fault f = plan.fault(FaultKind.PARTIAL, 5);
        assertThat(f.inject()).containsExactly("cut 5:1");
        assertThat(f.sides()).containsExactly(Set.of(1, 2, 3, 4, 5));
        assertThat(f.ringsKnown()).isFalse();
        assertThat(f.cutOff()).isEmpty();
        assertThat(f.adminChanges()).isFalse();
    }

    @Test
    void processFaultsImpairTheirMemberAndNameTheirHealingCommand() {
        Fault pause = plan.fault(FaultKind.PAUSE, 2);
        assertThat(pause.inject()).containsExactly("pause 2");
        assertThat(pause.heal()).containsExactly("resume 2");
        assertThat(pause.holdMillis()).isEqualTo(20_000);
        assertThat(pause.impaired()).containsExactly(2);
        assertThat(pause.sides()).containsExactly(Set.of(1, 3, 4, 5));

        Fault slow = plan.fault(FaultKind.SLOW, 4);
        assertThat(slow.inject()).containsExactly("slow 4 5");
        assertThat(slow.heal()).containsExactly("unslow 4");
        assertThat(slow.expectsRingChange()).isFalse();

        Fault kill = plan.fault(FaultKind.KILL, 6);
        assertThat(kill.inject()).containsExactly("kill 1");
        assertThat(kill.heal()).containsExactly("start 1");
    }

    @Test
    void aBlipIsAShortIsolationThatShouldChangeNothing() {
        Fault f = plan.fault(FaultKind.BLIP, 1);
        assertThat(f.inject()).containsExactly("cut 1:2 1:3 1:4 1:5");
        assertThat(f.holdMillis()).isEqualTo(3_000);
        assertThat(f.sides()).containsExactly(Set.of(1, 2, 3, 4, 5));
        assertThat(f.expectsRingChange()).isFalse();
        assertThat(f.adminChanges()).isFalse();
        assertThat(f.cutOff()).containsExactly(1);
    }

    @Test
    void theTargetMovesWithThePlaceInTheRun() {
        assertThat(plan.fault(FaultKind.ISOLATE, 1).label()).isEqualTo("isolate m1");
        assertThat(plan.fault(FaultKind.ISOLATE, 7).label()).isEqualTo("isolate m2");
    }

    @Test
    void sevenMembersSplitFourAgainstThree() {
        Fault f = new FaultPlan(7, 30, 20, 3, 5).fault(FaultKind.SPLIT, 1);
        assertThat(f.sides().get(0)).hasSize(4);
        assertThat(f.sides().get(1)).hasSize(3);
    }

    @Test
    void fewerThanThreeMembersAreRefused() {
        assertThatThrownBy(() -> new FaultPlan(2, 30, 20, 3, 5)).hasMessageContaining("at least 3 members");
    }

    @Test
    void faultWordsParseAndUnknownOnesAreNamed() {
        assertThat(FaultKind.parse("kill")).isEqualTo(FaultKind.KILL);
        assertThatThrownBy(() -> FaultKind.parse("flood")).hasMessageContaining("no fault 'flood'");
    }
}
