package io.ketama.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineTest {

    private static final long T0 = 1_000_000L;

    @Test
    void countsLandInTheirSecond() {
        Timeline t = new Timeline(T0, 60);
        t.record(T0 + 100, Outcome.HIT, 5, false, 0);
        t.record(T0 + 900, Outcome.MISS, 25, true, 0);
        t.record(T0 + 1500, Outcome.HIT, 3, true, 0);
        t.record(T0 + 1600, Outcome.ERROR, -1, false, 0);
        t.recordFailedAttempt(T0 + 1600, "8082: no response");
        t.recordFailedAttempt(T0 + 1700, "8082: no response");

        List<TimelineRow> rows = t.rows();
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0)).extracting(TimelineRow::hits, TimelineRow::misses, TimelineRow::errors, TimelineRow::v2)
                .containsExactly(1L, 1L, 0L, 1L);
        assertThat(rows.get(0).failovers()).isZero();
        assertThat(rows.get(0).hitRatio()).isEqualTo(0.5);
        assertThat(rows.get(0).p99()).isEqualTo(25);
        assertThat(rows.get(1)).extracting(TimelineRow::requests, TimelineRow::failedAttempts).containsExactly(2L, 2L);
        assertThat(t.failureReasons()).containsEntry("8082: no response", 2L);
    }

    @Test
    void bypassesCountAgainstTheHitRatioAndFailoversAreCounted() {
        Timeline t = new Timeline(T0, 10);
        t.record(T0, Outcome.HIT, 1, false, 0);
        t.record(T0, Outcome.BYPASS, 30, false, 2);
        t.record(T0, Outcome.MISS, 20, false, 1);
        t.record(T0, Outcome.ERROR, -1, false, 0);
        TimelineRow r = t.window(0, 1);
        assertThat(r.answered()).isEqualTo(3);
        assertThat(r.requests()).isEqualTo(4);
        assertThat(r.hitRatio()).isEqualTo(1.0 / 3);
        assertThat(r.bypasses()).isEqualTo(1);
        assertThat(r.failovers()).isEqualTo(2);
    }

    @Test
    void windowsSumSecondsAndEmptyOnesAreUndefined() {
        Timeline t = new Timeline(T0, 10);
        for (int s = 0; s < 4; s++) {
            t.record(T0 + s * 1000L, s % 2 == 0 ? Outcome.HIT : Outcome.MISS, 10 * (s + 1), false, 0);
        }
        TimelineRow w = t.window(0, 4);
        assertThat(w.requests()).isEqualTo(4);
        assertThat(w.hitRatio()).isEqualTo(0.5);
        assertThat(w.p50()).isEqualTo(20);
        assertThat(t.window(6, 8).hitRatio()).isNaN();
        assertThat(t.window(6, 8).p50()).isEqualTo(-1);
    }

    @Test
    void eventsOutsideTheRangeAreClampedAndTheStartCanMove() {
        Timeline t = new Timeline(T0, 5);
        assertThat(t.secondOf(T0 - 5000)).isZero();
        assertThat(t.secondOf(T0 + 999_000)).isEqualTo(4);
        t.startAt(T0 + 3000);
        assertThat(t.secondOf(T0 + 3500)).isZero();
        assertThat(t.startMillis()).isEqualTo(T0 + 3000);
    }
}
