package io.ketama.load.skew;

import java.util.Arrays;

/**
 * Every latency of a phase, kept exactly (a phase at 1,000 req/s for 60 s is 480 KB of longs), so a
 * percentile is the value at its rank, not a bucket's edge: the p-th percentile of {@code n} values
 * is the {@code ⌈p/100 · n⌉}-th smallest. Not thread-safe: one load thread records.
 */
final class Latencies {

    private long[] nanos = new long[1024];
    private int count;

    void add(long value) {
        if (count == nanos.length) {
            nanos = Arrays.copyOf(nanos, nanos.length * 2);
        }
        nanos[count++] = value;
    }

    int count() {
        return count;
    }

    /** The {@code p}-th percentile (0 < p ≤ 100) in nanoseconds; 0 when nothing was recorded. */
    long percentile(double p) {
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("a percentile is above 0 and at most 100, was " + p);
        }
        if (count == 0) {
            return 0;
        }
        long[] sorted = Arrays.copyOf(nanos, count);
        Arrays.sort(sorted);
        // less a hair: 99.9 % of 1,000 is rank 999, not the 1,000 that 999.0000000000001 would round up to
        int rank = (int) Math.ceil(p * count / 100.0 - 1e-9);
        return sorted[Math.max(1, rank) - 1];
    }
}
