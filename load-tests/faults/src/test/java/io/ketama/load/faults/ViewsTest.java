package io.ketama.load.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class ViewsTest {

    private static PollRound round(long at, MemberView... views) {
        Map<Integer, MemberView> map = new java.util.LinkedHashMap<>();
        for (MemberView v : views) {
            map.put(v.member(), v);
        }
        return new PollRound(at, map);
    }

    private static MemberView view(int member, long rebuild, String... owners) {
        Map<String, String> o = new java.util.LinkedHashMap<>();
        for (int i = 0; i < owners.length; i++) {
            o.put("k" + (i + 1), owners[i]);
        }
        return new MemberView(member, true, Set.of("a", "b"), rebuild, 1, 0, o, null);
    }

    @Test
    void ownersAgreeAmongTheMembersThatAnsweredOnly() {
        PollRound r = round(0, view(1, 1, "a", "b"), view(2, 1, "a", "b"), MemberView.silent(3, "paused"));
        assertThat(Views.ownersAgree(r, Set.of(1, 2, 3), List.of("k1", "k2"))).isTrue();
        assertThat(Views.allAnswered(r, Set.of(1, 2, 3))).isFalse();
        PollRound split = round(0, view(1, 1, "a", "b"), view(2, 1, "a", "a"));
        assertThat(Views.ownersAgree(split, Set.of(1, 2), List.of("k1", "k2"))).isFalse();
        assertThat(Views.ownersAgree(split, Set.of(1, 2), List.of("k1"))).isTrue();
    }

    @Test
    void stableFromIsTheStartOfTheLastUnbrokenRun() {
        List<PollRound> rounds = List.of(round(0, view(1, 1)), round(500, view(1, 2)), round(1000, view(1, 1)), round(1500, view(1, 1)),
                round(2000, view(1, 1)));
        Predicate<PollRound> one = r -> r.view(1).rebuildGeneration() == 1;
        assertThat(Views.stableFrom(rounds, one, 0, 10_000)).isEqualTo(1000);
        assertThat(Views.stableFrom(rounds, one, 0, 600)).isNull(); // it broke at the last round before 600
        assertThat(Views.stableFrom(rounds, r -> true, 200, 10_000)).isEqualTo(500);
        assertThat(Views.stableFrom(rounds, r -> true, 5_000, 10_000)).isNull(); // no rounds: no evidence
    }

    @Test
    void heldMillisCountsEachRoundUntilTheNext() {
        List<PollRound> rounds = List.of(round(0, view(1, 1)), round(500, view(1, 2)), round(1000, view(1, 1)), round(1700, view(1, 2)));
        assertThat(Views.heldMillis(rounds, r -> r.view(1).rebuildGeneration() == 2, 0, 2_000)).isEqualTo(500 + 300);
        assertThat(Views.heldMillis(rounds, r -> true, 0, 2_000)).isEqualTo(2_000);
    }

    @Test
    void rebuildsAddTheRisesAndARestartCountsFromZero() {
        List<PollRound> rounds = List.of(round(0, view(1, 10)), round(500, view(1, 14)), round(1000, MemberView.silent(1, "x")),
                round(1500, view(1, 15)), round(2000, view(1, 2)), round(2500, view(1, 3)));
        assertThat(Views.rebuilds(rounds, 1, 0, 3_000)).isEqualTo(4 + 1 + 2 + 1);
        assertThat(Views.rebuilds(rounds, 1, 1_500, 3_000)).isEqualTo(2 + 1);
    }

    @Test
    void droppedNeedsAnAnswerAndNothingOutsideTheSide() {
        MemberView keep = new MemberView(1, true, Set.of("a"), 1, 1, 0, Map.of(), null);
        MemberView stale = new MemberView(2, true, Set.of("a", "c"), 1, 1, 0, Map.of(), null);
        assertThat(Views.dropped(round(0, keep), Set.of(1), Set.of("a", "b"))).isTrue();
        assertThat(Views.dropped(round(0, keep, stale), Set.of(1, 2), Set.of("a", "b"))).isFalse();
        assertThat(Views.dropped(round(0, MemberView.silent(1, "x")), Set.of(1), Set.of("a"))).isFalse();
    }

    @Test
    void emptyRingsAreCountedPerAnswer() {
        MemberView empty = new MemberView(3, true, Set.of(), 1, 1, 0, Map.of(), null);
        List<PollRound> rounds = List.of(round(0, view(1, 1), empty), round(500, view(1, 1), empty), round(1000, view(1, 1)));
        Views.EmptyRings e = Views.emptyRings(rounds, Set.of(1, 3), 0, 2_000);
        assertThat(e.polls()).isEqualTo(2);
        assertThat(e.members()).containsExactly(3);
    }
}
