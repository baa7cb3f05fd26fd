package io.ketama.router.forwarding;

import com.hazelcast.cluster.Member;
import io.ketama.router.serving.Served;
import io.ketama.router.tracing.TraceContext;
import java.util.concurrent.CompletionStage;

/**
 * Carries a key to another member and its answer back, without holding a thread while the
 * other member works. The {@link Forwarder} guards every call (timeout, retry, circuit breaker,
 * bulkhead); a transport only moves bytes and tells failures apart.
 */
public interface ForwardTransport extends AutoCloseable {

    /**
     * Asks {@code target} to serve {@code key} as its owner.
     *
     * @return the target's answer; completed exceptionally with
     *         {@link io.ketama.router.serving.OriginUnavailableException} when the target could not
     *         reach the origin, {@link io.ketama.router.serving.OverloadedException} when it had no
     *         room, {@link NotServingException} when it serves no keys now, or whatever else broke
     *         on the way (closed connection, timeout)
     */
    default CompletionStage<Served> forward(Member target, String key) {
        return forward(target, key, false);
    }

    /**
     * As {@link #forward(Member, String)}; with {@code spillable}, {@code target} may answer that it is
     * past its bound ({@link SpilledException}) instead of serving, where it speaks
     * {@link io.ketama.router.forwarding.channel.ChannelVersion#SPILLS} or later (an older member is sent a plain request, which it serves).
     */
    CompletionStage<Served> forward(Member target, String key, boolean spillable);

    /**
     * As {@link #forward(Member, String, boolean)}, carrying {@code trace} (null: untraced) to a target
     * that speaks {@link io.ketama.router.forwarding.channel.ChannelVersion#TRACES} or later; an older target is sent the untraced request.
     * A transport that carries no trace context forwards untraced.
     */
    default CompletionStage<Served> forward(Member target, String key, boolean spillable, TraceContext trace) {
        return forward(target, key, spillable);
    }

    /** How this transport is named in configuration and logs. */
    TransportKind kind();

    /** Closes connections this transport holds. */
    @Override
    void close();
}
