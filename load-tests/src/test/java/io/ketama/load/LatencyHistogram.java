package io.ketama.load;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A lock-free histogram of latencies in milliseconds: exact below 64 ms, then 16 buckets per
 * power of two (a percentile is reported at most 1/16 above the true value), up to about 17
 * minutes. Small enough to keep one per second of a run.
 */
final class LatencyHistogram {

    private static final int EXACT = 64;
    private static final int SUB_BUCKETS = 16;
    private static final int FIRST_POWER = 6;   // 2^6 = EXACT
    private static final int LAST_POWER = 20;   // values up to 2^20 - 1 ms; larger ones are clamped
    static final int MAX_VALUE = (1 << LAST_POWER) - 1;
    private static final int BUCKETS = EXACT + (LAST_POWER - FIRST_POWER) * SUB_BUCKETS;

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);

    /** Records one latency; negative values count as 0, values above {@link #MAX_VALUE} as that. */
    void record(long millis) {
        counts.incrementAndGet(bucketOf(millis));
    }

    /** Adds every count of {@code other} into this histogram. */
    void addAll(LatencyHistogram other) {
        for (int i = 0; i < BUCKETS; i++) {
            long c = other.counts.get(i);
            if (c != 0) {
                counts.addAndGet(i, c);
            }
        }
    }

    long count() {
        long n = 0;
        for (int i = 0; i < BUCKETS; i++) {
            n += counts.get(i);
        }
        return n;
    }

    /**
     * The nearest-rank percentile: the smallest recorded bucket bound that at least {@code p}
     * percent of the values do not exceed; -1 when nothing was recorded.
     *
     * @param p from 0 (exclusive) to 100
     */
    long percentile(double p) {
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile must be above 0 and at most 100, was " + p);
        }
        long total = count();
        if (total == 0) {
            return -1;
        }
        long rank = (long) Math.ceil(p / 100.0 * total);
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts.get(i);
            if (seen >= rank) {
                return upperBound(i);
            }
        }
        return upperBound(BUCKETS - 1);
    }

    static int bucketOf(long millis) {
        long v = Math.max(0, Math.min(millis, MAX_VALUE));
        if (v < EXACT) {
            return (int) v;
        }
        int power = 63 - Long.numberOfLeadingZeros(v);                  // 2^power <= v < 2^(power+1)
        int sub = (int) ((v - (1L << power)) >> (power - 4));           // 16 equal slices of the range
        return EXACT + (power - FIRST_POWER) * SUB_BUCKETS + sub;
    }

    /** The largest value that falls in bucket {@code index}. */
    static long upperBound(int index) {
        if (index < EXACT) {
            return index;
        }
        int power = FIRST_POWER + (index - EXACT) / SUB_BUCKETS;
        int sub = (index - EXACT) % SUB_BUCKETS;
        long width = 1L << (power - 4);
        return (1L << power) + (sub + 1) * width - 1;
    }
}
