package io.ketama.load.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AdminOutcomeTest {

    private static PollRound finalState(long generation, double share, int members) {
        Map<Integer, MemberView> views = new LinkedHashMap<>();
        for (int m = 1; m <= members; m++) {
            views.put(m, new MemberView(m, true, Set.of(), 1, generation, share, Map.of(), null));
        }
        return new PollRound(0, views);
    }

    @Test
    void twoAcknowledgedChangesOfOneGenerationCannotBothSurvive() {
        AdminChange majority = new AdminChange(1, "majority", 0, 11.0, 200, 2, "{}");
        AdminChange minority = new AdminChange(3, "minority", 0, 61.0, 200, 2, "{}");
        PollRound end = finalState(2, 11.0, 5);
        assertThat(AdminOutcome.of(majority, end).survived()).isTrue();
        AdminOutcome lost = AdminOutcome.of(minority, end);
        assertThat(lost.survived()).isFalse();
        assertThat(lost.lost()).isTrue();
        assertThat(lost.finalState()).startsWith("m1 g2 11.0%");
    }

    @Test
    void aRefusedChangeIsNeitherKeptNorLost() {
        AdminOutcome refused = AdminOutcome.of(new AdminChange(3, "minority", 0, 61.0, 503, -1, "{\"type\":\"too-few-members\"}"),
                finalState(2, 11.0, 5));
        assertThat(refused.survived()).isFalse();
        assertThat(refused.lost()).isFalse();
    }

    @Test
    void aChangeSurvivesOnlyWhereEveryAnsweringMemberAppliesIt() {
        AdminChange c = new AdminChange(1, "majority", 0, 11.0, 200, 2, "{}");
        Map<Integer, MemberView> views = new LinkedHashMap<>(finalState(2, 11.0, 4).views());
        views.put(5, new MemberView(5, true, Set.of(), 1, 2, 61.0, Map.of(), null));
        assertThat(AdminOutcome.of(c, new PollRound(0, views)).lost()).isTrue();
        views.put(5, MemberView.silent(5, "paused"));
        assertThat(AdminOutcome.of(c, new PollRound(0, views)).survived()).isTrue();
        assertThat(AdminOutcome.of(c, null).lost()).isTrue();
    }

    @Test
    void aRefusalNamesItsProblemAndASideBelowTheQuorumIsMarked() {
        AdminChange refused = new AdminChange(3, "minority", 0, 61.0, 503, -1, "{\"type\":\"urn:ketama:problem:too-few-members\"}");
        assertThat(refused.problem()).isEqualTo("too-few-members");
        assertThat(new AdminChange(1, "majority", 0, 11.0, 503, -1, "{\"type\":\"urn:ketama:problem:unconfirmed\"}").problem())
                .isEqualTo("unconfirmed");
        assertThat(new AdminChange(1, "majority", 0, 11.0, 200, 2, "{}").problem()).isEmpty();
        assertThat(refused.belowQuorum()).isFalse();
        assertThat(refused.onSide(2, 3).belowQuorum()).isTrue();
        assertThat(refused.onSide(3, 3).belowQuorum()).isFalse();
        assertThat(refused.onSide(2, 3).problem()).isEqualTo("too-few-members");
    }
}
