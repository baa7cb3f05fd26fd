package io.ketama.quarkus.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A scheduled ramp of the v2 share with a brake: the share goes through {@code steps} one
 * {@code interval} apart; before each step the brake looks at the interval just past and holds
 * when a threshold is crossed.
 *
 * @param steps                   v2 shares in percent, strictly rising, each in (0, 100]; at most {@value #MAX_STEPS}
 * @param interval                time between steps, at least one second
 * @param maxPredictedMissPercent hold before a step whose predicted cache-miss share (step size ×
 *                                shadow disagreement rate) exceeds this percentage of requests;
 *                                null: no such brake. Keeps shadow on during the ramp.
 * @param maxForwardErrorPercent  hold when more than this percentage of forwards failed over the
 *                                interval; null: no such brake
 * @param rollback                when the forward error brake holds, also put the migration back to
 *                                what it was before the ramp
 * @param minSamples              selections (or forwards) an interval needs before its rate counts;
 *                                with fewer the brake holds, since it cannot tell
 * @throws IllegalArgumentException naming the field and what is allowed
 */
record RampPlan(List<Double> steps, Duration interval, Double maxPredictedMissPercent, Double maxForwardErrorPercent,
                       boolean rollback, long minSamples) {

    static final int MAX_STEPS = 20;
    static final long DEFAULT_MIN_SAMPLES = 100;

    RampPlan {
        Objects.requireNonNull(steps, "steps");
        Objects.requireNonNull(interval, "interval");
        steps = List.copyOf(steps);
        if (steps.isEmpty() || steps.size() > MAX_STEPS) {
            throw new IllegalArgumentException("steps must list 1 to " + MAX_STEPS + " shares, was " + steps.size());
        }
        double previous = 0;
        for (double s : steps) {
            if (!(s > previous && s <= 100)) {
                throw new IllegalArgumentException("steps must rise strictly, each in (0, 100], was " + steps);
            }
            previous = s;
        }
        if (interval.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("interval must be at least 1 second (e.g. PT5M), was " + interval);
        }
        checkPercent("maxPredictedMissPercent", maxPredictedMissPercent);
        checkPercent("maxForwardErrorPercent", maxForwardErrorPercent);
        if (rollback && maxForwardErrorPercent == null) {
            throw new IllegalArgumentException("rollback needs maxForwardErrorPercent: only the forward error brake rolls back");
        }
        if (minSamples < 1) {
            throw new IllegalArgumentException("minSamples must be >= 1, was " + minSamples);
        }
    }

    private static void checkPercent(String name, Double value) {
        if (value != null && !(value >= 0 && value <= 100)) {
            throw new IllegalArgumentException(name + " must be a percentage from 0 to 100, was " + value);
        }
    }
}
