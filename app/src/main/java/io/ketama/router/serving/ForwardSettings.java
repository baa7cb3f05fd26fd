package io.ketama.router.serving;

import java.time.Duration;
import java.util.Objects;

/**
 * How forwards to another member are guarded. Each member gets its own circuit breaker, so one
 * failing member never stops forwards to the others.
 *
 * @param timeout                 how long one forward attempt may take
 * @param maxRetries              further attempts at the same member after a failed one (0 = none)
 * @param retryDelay              pause before each retry
 * @param breakerVolumeThreshold  rolling window of forwards the breaker judges
 * @param breakerFailureRatio     failed share of that window that opens the breaker, in (0, 1]
 * @param breakerDelay            how long an open breaker stays open before a trial forward
 * @param maxCandidates           distinct members tried for one key, owner first, before the origin directly
 */
public record ForwardSettings(Duration timeout, int maxRetries, Duration retryDelay, int breakerVolumeThreshold,
                              double breakerFailureRatio, Duration breakerDelay, int maxCandidates) {

    public ForwardSettings {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(retryDelay, "retryDelay");
        Objects.requireNonNull(breakerDelay, "breakerDelay");
        require(!timeout.isNegative() && !timeout.isZero(), "forward timeout must be > 0, was " + timeout);
        require(maxRetries >= 0 && maxRetries <= 10, "forward max retries must be in 0..10, was " + maxRetries);
        require(!retryDelay.isNegative(), "forward retry delay must be >= 0, was " + retryDelay);
        require(breakerVolumeThreshold >= 1, "breaker request volume threshold must be >= 1, was " + breakerVolumeThreshold);
        require(breakerFailureRatio > 0 && breakerFailureRatio <= 1,
                "breaker failure ratio must be in (0, 1], was " + breakerFailureRatio);
        require(!breakerDelay.isNegative(), "breaker delay must be >= 0, was " + breakerDelay);
        require(maxCandidates >= 1, "max candidates must be >= 1, was " + maxCandidates);
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }
}
