package io.ketama.router.tracing;

import java.util.Objects;

/**
 * The W3C trace context a forward carries to its owner: the {@code traceparent} of the forwarding
 * member's client span and its {@code tracestate} (empty where it has none). A forward carries one
 * only while tracing is on (see {@code io.ketama.router.Tracing}); with tracing absent none is made
 * and the transports send what they sent before.
 *
 * @param traceparent as the W3C header, at most {@link #MAX_LENGTH} chars of ASCII
 * @param tracestate  as the W3C header, at most {@link #MAX_LENGTH} chars of ASCII; never null
 */
public record TraceContext(String traceparent, String tracestate) {

    /** The longest either field may be: W3C caps tracestate at 32 members of some 256 chars, far below it. */
    public static final int MAX_LENGTH = 8192;

    public TraceContext {
        Objects.requireNonNull(traceparent, "traceparent");
        tracestate = tracestate == null ? "" : tracestate;
        if (traceparent.length() > MAX_LENGTH || tracestate.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("traceparent and tracestate must be at most " + MAX_LENGTH
                    + " chars each, were " + traceparent.length() + " and " + tracestate.length());
        }
    }
}
