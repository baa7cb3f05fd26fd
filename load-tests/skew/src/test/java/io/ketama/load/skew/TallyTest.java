package io.ketama.load.skew;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TallyTest {

    private static final long S = 1_000_000_000L;

    @Test
    void countsWhoServedWhatAndWhatWasOffTheOwner() {
        Tally t = new Tally(Map.of("127.0.0.1:5701", "m0", "127.0.0.1:5702", "m1"), 0);
        t.answer(0, 1_000, 200, "127.0.0.1:5701", "127.0.0.1:5701", "HIT", null);
        t.answer(0, 2_000, 200, "127.0.0.1:5702", "127.0.0.1:5701", "HIT", null);
        t.answer(0, 3_000, 200, "127.0.0.1:5702", "127.0.0.1:5702", "MISS", "1");
        t.answer(0, 4_000, 200, "owner-9", null, null, null);
        assertThat(t.ok()).isEqualTo(4);
        assertThat(t.servedBy()).containsExactlyInAnyOrderEntriesOf(Map.of("m0", 1L, "m1", 2L, "owner-9", 1L));
        assertThat(t.offOwnerBy()).containsExactlyInAnyOrderEntriesOf(Map.of("m1", 1L));
        assertThat(t.cacheValues()).containsExactlyInAnyOrderEntriesOf(Map.of("HIT", 2L, "MISS", 1L, "(none)", 1L));
        assertThat(t.failedOver()).isEqualTo(1);
        assertThat(t.okLatencies().percentile(100)).isEqualTo(4_000);
        assertThat(t.failed()).isZero();
    }

    @Test
    void aNon2xxAnswerAndALostRequestAreFailuresInTheirSecond() {
        Tally t = new Tally(Map.of(), 10 * S);
        t.answer(10 * S, 5, 503, "127.0.0.1:5701", "127.0.0.1:5701", null, null);
        t.noAnswer(Tally.Failure.SOCKET, 12 * S + 5);
        t.noAnswer(Tally.Failure.TIMEOUT, 12 * S + 7);
        t.answer(13 * S, 5, 200, "a", "a", "HIT", null);
        assertThat(t.answered()).isEqualTo(2);
        assertThat(t.ok()).isEqualTo(1);
        assertThat(t.failed()).isEqualTo(3);
        assertThat(t.statuses()).containsExactlyInAnyOrderEntriesOf(Map.of(503, 1L, 200, 1L));
        assertThat(t.failures()).containsExactlyInAnyOrderEntriesOf(
                Map.of(Tally.Failure.STATUS, 1L, Tally.Failure.SOCKET, 1L, Tally.Failure.TIMEOUT, 1L));
        assertThat(t.failuresBySecond()).containsExactlyInAnyOrderEntriesOf(Map.of(0L, 1L, 2L, 2L));
        // a failed answer is not counted as served by anyone
        assertThat(t.servedBy()).containsExactlyInAnyOrderEntriesOf(Map.of("a", 1L));
    }
}
