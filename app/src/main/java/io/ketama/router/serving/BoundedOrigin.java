package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An origin with a bound on this member's fetches under way (waiting for a connection included):
 * past it, a fetch fails at once with {@link OverloadedException} instead of joining a queue that
 * only grows while the origin is slower than the requests arrive.
 */
public final class BoundedOrigin implements Origin {

    private final Origin origin;
    private final int maxInFlight;
    private final AtomicInteger inFlight = new AtomicInteger();

    /**
     * @param maxInFlight the most fetches under way at once, at least 1
     * @throws IllegalArgumentException when {@code maxInFlight < 1}
     */
    public BoundedOrigin(Origin origin, int maxInFlight) {
        this.origin = Objects.requireNonNull(origin, "origin");
        check(maxInFlight);
        this.maxInFlight = maxInFlight;
    }

    /** @throws IllegalArgumentException when {@code maxInFlight < 1} */
    public static void check(int maxInFlight) {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("origin max in flight must be >= 1, was " + maxInFlight);
        }
    }

    @Override
    public CompletionStage<OriginAnswer> fetch(OriginRequest request) {
        if (inFlight.incrementAndGet() > maxInFlight) {
            inFlight.decrementAndGet();
            return CompletableFuture.failedFuture(new OverloadedException(
                    "this member has " + maxInFlight + " origin fetches under way, its limit"));
        }
        CompletionStage<OriginAnswer> answer;
        try {
            answer = origin.fetch(request);
        } catch (RuntimeException e) {
            inFlight.decrementAndGet();
            return CompletableFuture.failedFuture(e);
        }
        return answer.whenComplete((a, failure) -> inFlight.decrementAndGet());
    }

    /** Fetches under way now. */
    public int inFlight() {
        return inFlight.get();
    }

    public int maxInFlight() {
        return maxInFlight;
    }

    @Override
    public String toString() {
        return origin + " (at most " + maxInFlight + " fetches in flight)";
    }
}
