package io.ketama.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecoveryTest {

    private static final long T0 = 5_000_000L;

    /** Ten requests a second with {@code hits} hits in second {@code s}. */
    private static void second(Timeline t, int s, int hits) {
        for (int i = 0; i < 10; i++) {
            t.record(T0 + s * 1000L + i * 10, i < hits ? Outcome.HIT : Outcome.MISS, 5, false, 0);
        }
    }

    private static Timeline run(int... hitsPerSecond) {
        Timeline t = new Timeline(T0, 60);
        for (int s = 0; s < hitsPerSecond.length; s++) {
            second(t, s, hitsPerSecond[s]);
        }
        return t;
    }

    @Test
    void delayFromTheEventToTheFirstWindowBackNearTheBaseline() {
        Timeline t = run(8, 8, 8, 8, 8, 2, 3, 5, 7, 8, 8, 8, 8, 8, 8, 8);
        double baseline = t.window(0, 5).hitRatio();
        assertThat(baseline).isEqualTo(0.8);
        // 3 s windows from second 5: 0.33, 0.5, 0.67, 0.767, 0.8 -> the dip starts at 5, back (>= 0.77) at 9.
        assertThat(Recovery.seconds(t, 5, baseline, 0.03, 3, 10, 16)).isEqualTo(4);
        assertThat(Recovery.lowest(t.rows(), 5, 16)).isEqualTo(0.2);
    }

    @Test
    void aDipThatStartsLaterCountsFromTheEvent() {
        // The event at 2 (a JVM starting), hits drop at 6; 2 s windows: 0.55 at 5 (the dip), 0.35, 0.5, 0.7, 0.8 at 9.
        Timeline t = run(8, 8, 8, 8, 8, 8, 3, 4, 6, 8, 8, 8, 8, 8);
        assertThat(Recovery.seconds(t, 2, 0.8, 0.03, 2, 8, 14)).isEqualTo(7);
    }

    @Test
    void noDipIsZeroAndNoRecoveryIsMinusOne() {
        Timeline flat = run(8, 8, 8, 8, 8, 8, 8, 8, 8, 8);
        assertThat(Recovery.seconds(flat, 3, 0.8, 0.03, 3, 5, 10)).isZero();
        Timeline down = run(9, 9, 9, 9, 9, 1, 1, 1, 1, 1);
        assertThat(Recovery.seconds(down, 5, 0.9, 0.03, 3, 5, 10)).isEqualTo(-1);
        assertThat(Recovery.seconds(down, 5, Double.NaN, 0.03, 3, 5, 10)).isEqualTo(-1);
        assertThat(Recovery.lowest(down.rows(), 20, 30)).isNaN();
    }
}
