package io.ketama.load;

import java.util.List;

/**
 * How long the hit ratio takes to come back after a disruption. Hit ratios are compared over
 * windows of a few seconds (one second of 100 requests is too noisy): a dip begins at the first
 * window, starting within {@code horizon} seconds of the event, whose hit ratio falls below the
 * baseline minus the tolerance; the hit ratio has recovered at the first later window that is
 * back at or above that line. The delay reported runs from the event to that window's start.
 */
final class Recovery {

    private Recovery() {
    }

    /**
     * @param timeline    the run
     * @param eventSecond second of the disruption
     * @param baseline    hit ratio to come back to
     * @param tolerance   how far below the baseline still counts as normal (0.03 = 3 points)
     * @param window      seconds averaged per comparison
     * @param horizon     seconds after the event in which a dip must begin to count as caused by it
     * @param lastSecond  last second of the run (exclusive)
     * @return the delay in seconds; 0 when no dip began within the horizon; -1 when the hit ratio
     *         had not recovered when the run ended, or the baseline is undefined
     */
    static int seconds(Timeline timeline, int eventSecond, double baseline, double tolerance, int window,
                       int horizon, int lastSecond) {
        if (Double.isNaN(baseline)) {
            return -1;
        }
        double line = baseline - tolerance;
        int dip = -1;
        for (int s = eventSecond; s <= eventSecond + horizon && s + window <= lastSecond; s++) {
            if (below(timeline, s, window, line)) {
                dip = s;
                break;
            }
        }
        if (dip < 0) {
            return 0;
        }
        for (int s = dip + 1; s + window <= lastSecond; s++) {
            if (!below(timeline, s, window, line)) {
                return s - eventSecond;
            }
        }
        return -1;
    }

    private static boolean below(Timeline timeline, int from, int window, double line) {
        double ratio = timeline.window(from, from + window).hitRatio();
        return !Double.isNaN(ratio) && ratio < line;
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
