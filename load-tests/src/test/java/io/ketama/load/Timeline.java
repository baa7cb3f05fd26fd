package io.ketama.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per-second counts of a run: hits, misses, bypasses, errors, failed attempts, v2 answers,
 * answers after a cluster-side failover, and a latency
 * histogram for every second since {@link #startMillis()}. Recording is lock-free and safe from
 * any thread; reading while recording gives figures that are at worst a few requests stale.
 */
final class Timeline {

    private static final int HITS = 0;
    private static final int MISSES = 1;
    private static final int BYPASSES = 2;
    private static final int ERRORS = 3;
    private static final int FAILED_ATTEMPTS = 4;
    private static final int V2 = 5;
    private static final int FAILOVERS = 6;
    private static final int FIELDS = 7;

    private volatile long startMillis;
    private final int capacity;
    private final AtomicLongArray counts;
    private final LatencyHistogram[] latencies;
    private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();

    /**
     * @param startMillis epoch millis of second 0
     * @param capacity    seconds kept; later events count in the last second
     */
    Timeline(long startMillis, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1 second, was " + capacity);
        }
        this.startMillis = startMillis;
        this.capacity = capacity;
        this.counts = new AtomicLongArray(capacity * FIELDS);
        this.latencies = new LatencyHistogram[capacity];
        for (int i = 0; i < capacity; i++) {
            latencies[i] = new LatencyHistogram();
        }
    }

    long startMillis() {
        return startMillis;
    }

    /**
     * Moves second 0 to {@code epochMillis}: a simulation is built a few seconds before its load
     * starts, so it calls this from {@code before()}, when nothing has been recorded yet.
     */
    void startAt(long epochMillis) {
        this.startMillis = epochMillis;
    }

    /** The second of the run that {@code epochMillis} falls in, clamped to the kept range. */
    int secondOf(long epochMillis) {
        long s = Math.floorDiv(epochMillis - startMillis, 1000L);
        return (int) Math.max(0, Math.min(capacity - 1, s));
    }

    /**
     * Records a request's final outcome; {@code latencyMillis} is ignored for errors;
     * {@code clusterFailovers} is how many members the cluster tried before one answered.
     */
    void record(long epochMillis, Outcome outcome, long latencyMillis, boolean servedByV2, int clusterFailovers) {
        int base = secondOf(epochMillis) * FIELDS;
        switch (outcome) {
            case HIT -> counts.incrementAndGet(base + HITS);
            case MISS -> counts.incrementAndGet(base + MISSES);
            case BYPASS -> counts.incrementAndGet(base + BYPASSES);
            case ERROR -> counts.incrementAndGet(base + ERRORS);
        }
        if (outcome != Outcome.ERROR) {
            latencies[secondOf(epochMillis)].record(latencyMillis);
            if (servedByV2) {
                counts.incrementAndGet(base + V2);
            }
            if (clusterFailovers > 0) {
                counts.incrementAndGet(base + FAILOVERS);
            }
        }
    }

    /** Records one failed attempt and why, e.g. {@code "8082: no response"}. */
    void recordFailedAttempt(long epochMillis, String reason) {
        counts.incrementAndGet(secondOf(epochMillis) * FIELDS + FAILED_ATTEMPTS);
        failures.computeIfAbsent(reason, r -> new LongAdder()).increment();
    }

    /** Failed attempts by reason, sorted by reason. */
    Map<String, Long> failureReasons() {
        Map<String, Long> sorted = new TreeMap<>();
        failures.forEach((reason, n) -> sorted.put(reason, n.sum()));
        return sorted;
    }

    /** One row per second, from second 0 to the last second in which anything was recorded. */
    List<TimelineRow> rows() {
        int last = -1;
        for (int s = 0; s < capacity; s++) {
            for (int f = 0; f < FIELDS; f++) {
                if (counts.get(s * FIELDS + f) != 0) {
                    last = s;
                    break;
                }
            }
        }
        List<TimelineRow> rows = new ArrayList<>(last + 1);
        for (int s = 0; s <= last; s++) {
            rows.add(window(s, s + 1));
        }
        return rows;
    }

    /** The figures summed over seconds {@code [from, to)}, with percentiles over the whole window. */
    TimelineRow window(int fromSecond, int toSecond) {
        int from = Math.max(0, fromSecond);
        int to = Math.min(capacity, toSecond);
        long[] sum = new long[FIELDS];
        LatencyHistogram merged = new LatencyHistogram();
        for (int s = from; s < to; s++) {
            for (int f = 0; f < FIELDS; f++) {
                sum[f] += counts.get(s * FIELDS + f);
            }
            merged.addAll(latencies[s]);
        }
        return new TimelineRow(from, sum[HITS], sum[MISSES], sum[BYPASSES], sum[ERRORS], sum[FAILED_ATTEMPTS], sum[V2],
                sum[FAILOVERS], merged.percentile(50), merged.percentile(95), merged.percentile(99));
    }
}
