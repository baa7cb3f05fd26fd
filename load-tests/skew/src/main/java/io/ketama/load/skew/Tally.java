package io.ketama.load.skew;

import java.util.Map;
import java.util.TreeMap;

/**
 * What the client saw in one interval of a phase, counted from each answer: its status, who served
 * it ({@code X-Ketama-Served-By}, mapped to a member's name), whether that was not the key's ring
 * owner ({@code X-Ketama-Owner}), its {@code X-Ketama-Cache} value, whether the cluster failed over
 * ({@code X-Ketama-Failover}), its latency from its intended send time; and every request that got
 * no 2xx, by kind, with the second of the interval it was due in. Not thread-safe: one load thread
 * records.
 */
final class Tally {

    /** Why a request got no 2xx answer. */
    enum Failure { STATUS, SOCKET, TIMEOUT }

    private final Map<String, String> names;
    private final long startNanos;
    private long answered;
    private long ok;
    private final Map<Integer, Long> statuses = new TreeMap<>();
    private final Map<Failure, Long> failures = new TreeMap<>();
    private final Map<Long, Long> failuresBySecond = new TreeMap<>();
    private final Map<String, Long> servedBy = new TreeMap<>();
    private final Map<String, Long> offOwnerBy = new TreeMap<>();
    private final Map<String, Long> cacheValues = new TreeMap<>();
    private long failedOver;
    private final Latencies okLatencies = new Latencies();

    /**
     * @param names      a served-by header value to the member's name (values not listed count under
     *                   themselves)
     * @param startNanos when the interval began, for the failures' seconds
     */
    Tally(Map<String, String> names, long startNanos) {
        this.names = Map.copyOf(names);
        this.startNanos = startNanos;
    }

    /** An answer with its status line and headers read, due at {@code intendedNanos}. */
    void answer(long intendedNanos, long latencyNanos, int status, String servedByHeader, String ownerHeader,
                String cache, String failover) {
        answered++;
        statuses.merge(status, 1L, Long::sum);
        if (status < 200 || status > 299) {
            fail(Failure.STATUS, intendedNanos);
            return;
        }
        ok++;
        okLatencies.add(latencyNanos);
        String who = name(servedByHeader);
        servedBy.merge(who, 1L, Long::sum);
        if (ownerHeader != null && servedByHeader != null && !ownerHeader.equals(servedByHeader)) {
            offOwnerBy.merge(who, 1L, Long::sum);
        }
        cacheValues.merge(cache == null ? "(none)" : cache, 1L, Long::sum);
        if (failover != null) {
            failedOver++;
        }
    }

    /** A request that got no answer: its connection failed or it passed its deadline. */
    void noAnswer(Failure kind, long intendedNanos) {
        fail(kind, intendedNanos);
    }

    private void fail(Failure kind, long intendedNanos) {
        failures.merge(kind, 1L, Long::sum);
        failuresBySecond.merge(Math.max(0, (intendedNanos - startNanos) / 1_000_000_000L), 1L, Long::sum);
    }

    private String name(String servedByHeader) {
        if (servedByHeader == null) {
            return "(none)";
        }
        return names.getOrDefault(servedByHeader, servedByHeader);
    }

    long answered() {
        return answered;
    }

    long ok() {
        return ok;
    }

    long failed() {
        long n = 0;
        for (long v : failures.values()) {
            n += v;
        }
        return n;
    }

    Map<Integer, Long> statuses() {
        return statuses;
    }

    Map<Failure, Long> failures() {
        return failures;
    }

    /** Failed requests by the second of the interval they were due in. */
    Map<Long, Long> failuresBySecond() {
        return failuresBySecond;
    }

    Map<String, Long> servedBy() {
        return servedBy;
    }

    /** Answers served by a member other than the key's owner, by who served them. */
    Map<String, Long> offOwnerBy() {
        return offOwnerBy;
    }

    Map<String, Long> cacheValues() {
        return cacheValues;
    }

    long failedOver() {
        return failedOver;
    }

    Latencies okLatencies() {
        return okLatencies;
    }
}
