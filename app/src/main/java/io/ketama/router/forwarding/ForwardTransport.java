package io.ketama.router.forwarding;

import com.hazelcast.cluster.Member;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.Served;
import io.ketama.router.tracing.TraceContext;
import java.util.concurrent.CompletionStage;

/**
 * Carries a request for a key to another member and its answer back, without holding a thread
 * while the other member works. The {@link Forwarder} guards every call (timeout, retry, circuit
 * breaker, bulkhead); a transport only moves bytes and tells failures apart.
 *
 * <p>Since channel version 5 a forward carries the whole request the cache reads (the key, the
 * origin's target, the client's method and fields) and the answer its fields and age; a transport
 * sends none to a member that publishes an older version: such a forward fails at once with
 * {@link NoUsableEndpointException} (the next candidate serves, the member is not blamed), so no
 * member of an older release answers a request it cannot read whole (its answer could be another
 * client's variant).
 */
public interface ForwardTransport extends AutoCloseable {


    /**
     * Asks {@code target} to serve {@code request} as the key's holder.
     *
     * @param spillable whether {@code target} may answer that it is past its bound
     *                  ({@link SpilledException}) instead of serving
     * @param trace     the entry member's trace context to carry (null: untraced)
     * @return the target's answer; completed exceptionally with
     *         {@link io.ketama.router.serving.OriginUnavailableException} when the target could not
     *         reach the origin, {@link io.ketama.router.serving.OverloadedException} when it had no
     *         room, {@link NotServingException} when it serves no keys now,
     *         {@link NoUsableEndpointException} when it publishes no usable port or an older channel
     *         version, or whatever else broke on the way (closed connection, timeout)
     */
    CompletionStage<Served> forward(Member target, KeyRequest request, boolean spillable, TraceContext trace);

    /** A plain {@code GET} of {@code key} ({@link KeyRequest#of}), final, untraced. */
    default CompletionStage<Served> forward(Member target, String key) {
        return forward(target, KeyRequest.of(key), false, null);
    }

    /** A plain {@code GET} of {@code key} ({@link KeyRequest#of}), untraced. */
    default CompletionStage<Served> forward(Member target, String key, boolean spillable) {
        return forward(target, KeyRequest.of(key), spillable, null);
    }

    /** A plain {@code GET} of {@code key} ({@link KeyRequest#of}). */
    default CompletionStage<Served> forward(Member target, String key, boolean spillable, TraceContext trace) {
        return forward(target, KeyRequest.of(key), spillable, trace);
    }

    /**
     * Asks {@code target} to drop every stored answer of {@code key} (RFC 9111 §4.4: an unsafe
     * request through this member changed it).
     *
     * @return completed once the target dropped them; exceptionally as {@link #forward} fails
     */
    CompletionStage<Void> invalidate(Member target, String key);

    /** How this transport is named in configuration and logs. */
    TransportKind kind();

    /** Closes connections this transport holds. */
    @Override
    void close();
}
