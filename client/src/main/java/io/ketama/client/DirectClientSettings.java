package io.ketama.client;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link DirectClient} tries a key's members.
 *
 * @param connectTimeout  how long a connection to a member may take to open
 * @param attemptTimeout  how long one member may take to answer (the members' own
 *                        {@code ketama.router.forward.timeout}, 2 s by default: a member the client
 *                        gives up on is one the members would have given up on too)
 * @param maxCandidates   distinct members tried for one key, owner first (the members'
 *                        {@code ketama.router.forward.max-candidates}, 3)
 * @param breakerFailures failed attempts in a row after which a member is held off
 * @param breakerOpenFor  how long a member is held off after {@code breakerFailures} (then one attempt
 *                        probes it: an answer closes the breaker, a failure holds it off again)
 * @param maxRetryAfter   the longest {@code Retry-After} of a {@code 503} the client honours by holding
 *                        that member off (a longer one is cut to this)
 */
public record DirectClientSettings(Duration connectTimeout, Duration attemptTimeout, int maxCandidates, int breakerFailures,
                                   Duration breakerOpenFor, Duration maxRetryAfter) {

    /** 1 s to connect, 2 s an attempt, 3 candidates, held off 2 s after 3 failures in a row, Retry-After up to 30 s. */
    public static final DirectClientSettings DEFAULTS = new DirectClientSettings(Duration.ofSeconds(1), Duration.ofSeconds(2), 3, 3,
            Duration.ofSeconds(2), Duration.ofSeconds(30));

    public DirectClientSettings {
        positive(connectTimeout, "connectTimeout");
        positive(attemptTimeout, "attemptTimeout");
        positive(breakerOpenFor, "breakerOpenFor");
        positive(maxRetryAfter, "maxRetryAfter");
        if (maxCandidates < 1) {
            throw new IllegalArgumentException("maxCandidates must be at least 1 (the owner), was " + maxCandidates);
        }
        if (breakerFailures < 1) {
            throw new IllegalArgumentException("breakerFailures must be at least 1, was " + breakerFailures);
        }
    }

    private static void positive(Duration d, String name) {
        Objects.requireNonNull(d, name);
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive, was " + d);
        }
    }
}
