package io.ketama.load;

/**
 * The figures of one second of a run (or of a window of seconds).
 *
 * @param second         seconds since the start of the run (for a window: its first second)
 * @param hits           200 answers marked HIT
 * @param misses         200 answers marked MISS
 * @param bypasses       200 answers marked BYPASS (origin fetched by the member asked, nothing cached)
 * @param errors         requests that failed after every attempt
 * @param failedAttempts attempts that failed (a request retried on another member counts one per failed try)
 * @param v2             answers served through the v2 ring
 * @param failovers      answers for which the cluster tried other members first ({@code X-Ketama-Failover})
 * @param p50            median latency of the answered requests in ms, -1 when there was none
 * @param p95            95th percentile in ms, -1 when none
 * @param p99            99th percentile in ms, -1 when none
 */
record TimelineRow(int second, long hits, long misses, long bypasses, long errors, long failedAttempts, long v2,
                   long failovers, long p50, long p95, long p99) {

    /** Requests that finished in this second, whatever their outcome. */
    long requests() {
        return answered() + errors;
    }

    /** Requests answered with a 200, from a cache or from the origin. */
    long answered() {
        return hits + misses + bypasses;
    }

    /** Hits over answered requests, NaN when nothing was answered. */
    double hitRatio() {
        long answered = answered();
        return answered == 0 ? Double.NaN : (double) hits / answered;
    }

    /** Share of answered requests served through v2, NaN when nothing was answered. */
    double v2Ratio() {
        long answered = answered();
        return answered == 0 ? Double.NaN : (double) v2 / answered;
    }
}
