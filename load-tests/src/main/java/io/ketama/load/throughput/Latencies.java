package io.ketama.load.throughput;

import java.util.Arrays;

/**
 * Every latency of one phase, kept exactly (a phase of a minute at 30k req/s is 1.8M longs, 14 MB),
 * so percentiles are exact ranks, not bucket estimates. Not thread-safe: one generator thread owns it.
 */
final class Latencies {

    private long[] nanos = new long[1 << 16];
    private int size;
    private boolean sorted = true;

    void add(long latencyNanos) {
        if (size == nanos.length) {
            nanos = Arrays.copyOf(nanos, size * 2);
        }
        nanos[size++] = latencyNanos;
        sorted = false;
    }

    int count() {
        return size;
    }

    /**
     * The nearest-rank percentile: the smallest latency such that at least {@code p} % of all are at or
     * below it.
     *
     * @param p in (0, 100]
     * @return nanoseconds, or -1 when there are none
     */
    long percentile(double p) {
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100], was " + p);
        }
        if (size == 0) {
            return -1;
        }
        sort();
        int rank = (int) Math.ceil(p / 100.0 * size);
        return nanos[Math.max(rank, 1) - 1];
    }

    long max() {
        if (size == 0) {
            return -1;
        }
        sort();
        return nanos[size - 1];
    }

    private void sort() {
        if (!sorted) {
            Arrays.sort(nanos, 0, size);
            sorted = true;
        }
    }
}
