package io.ketama.load.throughput;

import java.time.Duration;

/**
 * One stretch of load: either open-loop at a fixed arrival rate (requests are due at fixed intended
 * times whatever the server does, and latency counts from the intended time, so queueing in front
 * of a slow server is measured, not omitted), or closed-loop with a fixed number of requests in
 * flight (each sent as soon as the previous one is answered, as wrk does).
 *
 * @param name        label in the output
 * @param rate        requests per second for an open phase; 0 for a closed phase
 * @param concurrency requests in flight for a closed phase; 0 for an open phase
 * @param length      how long requests are issued
 */
record Phase(String name, double rate, int concurrency, Duration length) {

    Phase {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("phase name must not be blank");
        }
        if (length == null || length.isNegative() || length.isZero()) {
            throw new IllegalArgumentException("phase " + name + ": length must be > 0, was " + length);
        }
        if ((rate > 0) == (concurrency > 0)) {
            throw new IllegalArgumentException("phase " + name + ": exactly one of rate (" + rate
                    + ") and concurrency (" + concurrency + ") must be > 0");
        }
    }

    static Phase open(String name, double rate, Duration length) {
        return new Phase(name, rate, 0, length);
    }

    static Phase closed(String name, int concurrency, Duration length) {
        return new Phase(name, 0, concurrency, length);
    }

    boolean isOpen() {
        return rate > 0;
    }

    /** Intended send time of request {@code i} (from 0) of an open phase started at {@code startNanos}. */
    long intendedNanos(long startNanos, long i) {
        return startNanos + (long) (i * 1e9 / rate);
    }
}
