package io.ketama.load;

/**
 * What one migration step did, from the client's side and from the cluster's shadow counters.
 *
 * <p>A <em>carried</em> key was requested in the previous step and again in this one; as the
 * previous step cached it at its then owner, a miss on its first request in this step means the
 * step moved it to another member. The share of carried keys that missed is what the shadow
 * counters predict: {@code (share − previous share) / 100 × disagreement rate}.
 *
 * @param step                 0 for the warm-up, then 1, 2, …
 * @param sharePercent         v2 share during the step
 * @param previousSharePercent v2 share of the step before (equal to {@code sharePercent} for step 0)
 * @param startSecond          first second of the step (since the start of the run)
 * @param endSecond            second at which the next step began (exclusive)
 * @param window               the step's figures (hits, misses, errors, percentiles)
 * @param hitRatioBefore       hit ratio in the last seconds of the previous step (NaN for step 0)
 * @param hitRatioFirstSeconds hit ratio in the first seconds of this step
 * @param shadow               shadow counters accumulated during the step
 * @param previousRate         disagreement rate measured during the previous step (NaN for step 0)
 * @param carriedKeys          distinct carried keys requested in this step (untainted ones)
 * @param movedMisses          carried keys whose first request in this step missed
 * @param coldRequests         answered requests for keys never requested before
 * @param repeatMisses         misses of keys already answered earlier in the same step
 * @param taintedCarried       carried keys left out because a failure or failover may have cached
 *                             them at a second member (see {@link MigrationLedger})
 */
record StepResult(int step, int sharePercent, int previousSharePercent, int startSecond, int endSecond,
                  TimelineRow window, double hitRatioBefore, double hitRatioFirstSeconds,
                  ShadowCounters shadow, double previousRate, long carriedKeys, long movedMisses,
                  long coldRequests, long repeatMisses, long taintedCarried) {

    /** Share of carried keys that moved, as predicted by the previous step's disagreement rate. */
    double predictedMovedFraction() {
        if (step == 0) {
            return 0;
        }
        return (sharePercent - previousSharePercent) / 100.0 * previousRate;
    }

    /** Share of carried keys that did move (missed on their first request of the step). */
    double observedMovedFraction() {
        return carriedKeys == 0 ? Double.NaN : (double) movedMisses / carriedKeys;
    }
}
