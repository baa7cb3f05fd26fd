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

    @Test
    void delayUntilTheWindowIsBackNearTheBaseline() {
        Timeline t = new Timeline(T0, 60);
        int[] hits = {8, 8, 8, 8, 8, 2, 3, 5, 7, 8, 8, 8, 8, 8, 8, 8};
        for (int s = 0; s < hits.length; s++) {
            second(t, s, hits[s]);
        }
        double baseline = t.window(0, 5).hitRatio();
        assertThat(baseline).isEqualTo(0.8);
        // Windows of 3 s from second 5: 0.33, 0.5, 0.67, 0.77, 0.8 -> back (>= 0.78) at second 9.
        assertThat(Recovery.seconds(t, 5, baseline, 0.02, 3, hits.length)).isEqualTo(4);
        assertThat(Recovery.lowest(t.rows(), 5, 16)).isEqualTo(0.2);
    }

    @Test
    void neverRecoveredOrUndefined() {
        Timeline t = new Timeline(T0, 60);
        for (int s = 0; s < 10; s++) {
            second(t, s, s < 5 ? 9 : 1);
        }
        assertThat(Recovery.seconds(t, 5, 0.9, 0.02, 3, 10)).isEqualTo(-1);
        assertThat(Recovery.seconds(t, 5, Double.NaN, 0.02, 3, 10)).isEqualTo(-1);
        assertThat(Recovery.lowest(t.rows(), 20, 30)).isNaN();
    }
}
