package io.ketama.router.forwarding;

import java.time.Duration;
import java.util.Objects;

/**
 * How forwards to another member are guarded. Each member gets its own circuit breaker and its
 * own bulkhead, so one failing or slow member never stops forwards to the others.
 *
 * @param timeout                 how long one forward attempt may take
 * @param maxRetries              further attempts at the same member after a failed one (0 = none)
 * @param retryDelay              pause before each retry
 * @param breakerVolumeThreshold  rolling window of forwards the breaker judges
 * @param breakerFailureRatio     failed share of that window that opens the breaker, in (0, 1]
 * @param breakerDelay            how long an open breaker stays open before a trial forward
 * @param maxCandidates           distinct members tried for one key, owner first, before the origin directly
 * @param maxInFlight             forwards to one member under way at once (its bulkhead)
 * @param maxWaiting              forwards to one member that may wait for one of those slots; past
 *                                both, the member is skipped as busy at once
 */
public record ForwardSettings(Duration timeout, int maxRetries, Duration retryDelay, int breakerVolumeThreshold,
                              double breakerFailureRatio, Duration breakerDelay, int maxCandidates,
                              int maxInFlight, int maxWaiting) {

    public ForwardSettings {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(retryDelay, "retryDelay");
        Objects.requireNonNull(breakerDelay, "breakerDelay");
        require(!timeout.isNegative() && !timeout.isZero(), ".timeout: forward timeout must be > 0, was " + timeout);
        require(maxRetries >= 0 && maxRetries <= 10, ".max-retries: forward max retries must be in 0..10, was " + maxRetries);
        require(!retryDelay.isNegative(), ".retry-delay: forward retry delay must be >= 0, was " + retryDelay);
        // the breaker holds an entry per forward of its window, made with the first forward to a member
        require(breakerVolumeThreshold >= 1 && breakerVolumeThreshold <= 100_000,
                ".breaker.request-volume-threshold: breaker request volume threshold must be in 1..100000, was "
                        + breakerVolumeThreshold);
        require(breakerFailureRatio > 0 && breakerFailureRatio <= 1,
                ".breaker.failure-ratio: breaker failure ratio must be in (0, 1], was " + breakerFailureRatio);
        require(!breakerDelay.isNegative(), ".breaker.delay: breaker delay must be >= 0, was " + breakerDelay);
        require(maxCandidates >= 1, ".max-candidates: max candidates must be >= 1, was " + maxCandidates);
        require(maxInFlight >= 1 && maxInFlight <= 100_000,
                ".bulkhead.max-in-flight: forwards in flight per member must be in 1..100000, was " + maxInFlight);
        require(maxWaiting >= 1 && maxWaiting <= 100_000,
                ".bulkhead.max-waiting: forwards waiting per member must be in 1..100000, was " + maxWaiting);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
