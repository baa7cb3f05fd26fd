package io.ketama.router.tracing;

import io.ketama.router.serving.CacheStatus;

/**
 * One span of a request's trace on this member: the entry member's, a forward's, the owner's, an
 * origin fetch's. Made only while tracing is on ({@link Tracing#entry}, {@link Tracing#served}); with
 * tracing off there is none (callers hold null), so nothing of it runs or allocates.
 * Not thread-safe beyond what the OpenTelemetry span is: each is ended once, by whoever completes it.
 */
public interface RouteSpan {

    /** A forward from here to {@code member} (its address), a child client span; {@code attempt} 0 is the owner. */
    RouteSpan forward(String member, int attempt, String transport);

    /** A fetch of {@code key} from the origin, a child client span. */
    RouteSpan originFetch(String key);

    /** The context a forward carries from this span to the member it asks. */
    TraceContext context();

    /** The ring version the key was routed by ({@code v1}, {@code v2}) and its owner's address. */
    void route(String ringVersion, String owner);

    /** How the key was answered from the cache. */
    void cache(CacheStatus status);

    /** The candidates that failed before one answered (0: the first did), and whether the owner spilled it. */
    void failover(int failures, boolean spilled);

    /** Ends it as failed by {@code cause}. */
    void fail(Throwable cause);

    /** Ends it. */
    void end();
}
