package io.ketama.load;

import java.util.List;

/**
 * How long the hit ratio takes to come back after a disruption: the smallest delay {@code d}
 * such that the hit ratio over seconds {@code [event + d, event + d + window)} is at least the
 * baseline minus a tolerance.
 */
final class Recovery {

    private Recovery() {
    }

    /**
     * @param timeline    the run
     * @param eventSecond second of the disruption
     * @param baseline    hit ratio to come back to
     * @param tolerance   how far below the baseline still counts as recovered (0.02 = 2 points)
     * @param window      seconds averaged at each candidate delay
     * @param lastSecond  last second of the run (exclusive)
     * @return the delay in seconds, or -1 when the hit ratio did not recover before the run ended
     *         (or the baseline is undefined)
     */
    static int seconds(Timeline timeline, int eventSecond, double baseline, double tolerance, int window, int lastSecond) {
        if (Double.isNaN(baseline)) {
            return -1;
        }
        for (int s = eventSecond; s + window <= lastSecond; s++) {
            double ratio = timeline.window(s, s + window).hitRatio();
            if (!Double.isNaN(ratio) && ratio >= baseline - tolerance) {
                return s - eventSecond;
            }
        }
        return -1;
    }

    /** The lowest per-second hit ratio in {@code [from, to)}, NaN when nothing was answered. */
    static double lowest(List<TimelineRow> rows, int from, int to) {
        double low = Double.NaN;
        for (TimelineRow r : rows) {
            if (r.second() >= from && r.second() < to && !Double.isNaN(r.hitRatio())) {
                low = Double.isNaN(low) ? r.hitRatio() : Math.min(low, r.hitRatio());
            }
        }
        return low;
    }
}
