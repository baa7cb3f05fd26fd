package io.ketama.router.tracing;

/**
 * Where a request's spans start. {@link #OFF} (no OpenTelemetry in the build: the default, see
 * app/README.md "Tracing") makes none: each method answers null and callers skip their span work on
 * that null, so an untraced member allocates nothing for tracing on its hot path. With
 * {@code quarkus-opentelemetry} enabled at build, {@link OtelTracing} makes real spans.
 */
public interface Tracing {

    /** Traces nothing. */
    Tracing OFF = new Tracing() {
        @Override
        public RouteSpan entry(String key) {
            return null;
        }

        @Override
        public RouteSpan served(String key, TraceContext parent) {
            return null;
        }

        @Override
        public String toString() {
            return "tracing off";
        }
    };

    /** The entry member's span for a request for {@code key}, a child of the request's context; null: off. */
    RouteSpan entry(String key);

    /**
     * The owner member's span for a forwarded {@code key}, a child of {@code parent} (the forwarding
     * member's span as the forward carried it; null: none came, a trace of its own); null: off.
     */
    RouteSpan served(String key, TraceContext parent);
}
