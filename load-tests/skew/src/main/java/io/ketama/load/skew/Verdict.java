package io.ketama.load.skew;

import java.util.Locale;

/**
 * One target of the issue judged on a figure of the run: met, or missed by how much.
 *
 * @param target what was asked, e.g. {@code busiest member's share ÷ mean, Zipf 1.1, defaults}
 * @param figure the run's value
 * @param atMost whether the figure must be at most ({@code true}) or at least the limit
 * @param limit  the limit
 * @param detail how the figure was made, with its parts
 */
record Verdict(String target, double figure, boolean atMost, double limit, String detail) {

    static Verdict atMost(String target, double figure, double limit, String detail) {
        return new Verdict(target, figure, true, limit, detail);
    }

    static Verdict atLeast(String target, double figure, double limit, String detail) {
        return new Verdict(target, figure, false, limit, detail);
    }

    boolean met() {
        return atMost ? figure <= limit : figure >= limit;
    }

    /** {@code met}, or {@code MISSED by 0.59 (1.47× the limit)}. */
    String outcome() {
        if (Double.isNaN(figure) || Double.isNaN(limit)) {
            return "not measured";
        }
        if (met()) {
            return "met";
        }
        double by = Math.abs(figure - limit);
        return String.format(Locale.ROOT, "MISSED by %.2f (%.2f× the limit)", by, limit == 0 ? Double.POSITIVE_INFINITY : figure / limit);
    }

    String row() {
        return String.format(Locale.ROOT, "| %s | %.2f | %s %.2f | %s | %s |", target, figure, atMost ? "≤" : "≥", limit, outcome(),
                detail);
    }
}
