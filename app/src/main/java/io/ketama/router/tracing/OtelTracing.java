package io.ketama.router.tracing;

import io.ketama.router.serving.CacheStatus;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.List;

/**
 * {@link Tracing} with OpenTelemetry: the entry span is a child of the request's context (the HTTP
 * server span Quarkus makes, itself a child of the client's {@code traceparent}); a forward's span is
 * a client span whose context the transport carries; the owner's span continues it; an origin fetch
 * is a client span under whichever member serves. Context crosses members by the application's own
 * propagators (W3C trace context by default), read into and out of a {@link TraceContext}.
 */
final class OtelTracing implements Tracing {

    static final String SCOPE = "io.ketama.router";
    static final AttributeKey<String> RING_VERSION = AttributeKey.stringKey("ketama.ring.version");
    static final AttributeKey<String> OWNER = AttributeKey.stringKey("ketama.owner");
    static final AttributeKey<String> CACHE = AttributeKey.stringKey("ketama.cache");
    static final AttributeKey<Long> FAILOVER = AttributeKey.longKey("ketama.failover");
    static final AttributeKey<Boolean> SPILLED = AttributeKey.booleanKey("ketama.spilled");
    static final AttributeKey<String> MEMBER = AttributeKey.stringKey("ketama.member");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("ketama.attempt");
    static final AttributeKey<String> TRANSPORT = AttributeKey.stringKey("ketama.transport");

    private static final TextMapSetter<String[]> SETTER = (carrier, name, value) -> {
        if ("traceparent".equals(name)) {
            carrier[0] = value;
        } else if ("tracestate".equals(name)) {
            carrier[1] = value;
        }
    };

    private static final TextMapGetter<TraceContext> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(TraceContext carrier) {
            return List.of("traceparent", "tracestate");
        }

        @Override
        public String get(TraceContext carrier, String name) {
            if (carrier == null) {
                return null;
            }
            return switch (name) {
                case "traceparent" -> carrier.traceparent();
                case "tracestate" -> carrier.tracestate().isEmpty() ? null : carrier.tracestate();
                default -> null;
            };
        }
    };

    private final Tracer tracer;
    private final TextMapPropagator propagator;

    OtelTracing(OpenTelemetry otel) {
        this.tracer = otel.getTracer(SCOPE);
        this.propagator = otel.getPropagators().getTextMapPropagator();
    }

    @Override
    public RouteSpan entry(String key) {
        return start("ketama route", SpanKind.INTERNAL, Context.current());
    }

    @Override
    public RouteSpan served(String key, TraceContext parent) {
        Context context = parent == null ? Context.root() : propagator.extract(Context.root(), parent, GETTER);
        return start("ketama serve", SpanKind.SERVER, context);
    }

    private OtelSpan start(String name, SpanKind kind, Context parent) {
        Span span = tracer.spanBuilder(name).setSpanKind(kind).setParent(parent).startSpan();
        return new OtelSpan(span, parent.with(span));
    }

    private final class OtelSpan implements RouteSpan {

        private final Span span;
        private final Context context;

        OtelSpan(Span span, Context context) {
            this.span = span;
            this.context = context;
        }

        @Override
        public RouteSpan forward(String member, int attempt, String transport) {
            OtelSpan f = start("ketama forward", SpanKind.CLIENT, context);
            f.span.setAttribute(MEMBER, member);
            f.span.setAttribute(ATTEMPT, (long) attempt);
            f.span.setAttribute(TRANSPORT, transport);
            return f;
        }

        @Override
        public RouteSpan originFetch(String key) {
            return start("ketama origin fetch", SpanKind.CLIENT, context);
        }

        @Override
        public TraceContext context() {
            String[] carrier = new String[2];
            propagator.inject(context, carrier, SETTER);
            return carrier[0] == null ? null : new TraceContext(carrier[0], carrier[1]);
        }

        @Override
        public void route(String ringVersion, String owner) {
            span.setAttribute(RING_VERSION, ringVersion);
            span.setAttribute(OWNER, owner);
        }

        @Override
        public void cache(CacheStatus status) {
            span.setAttribute(CACHE, status.name());
        }

        @Override
        public void failover(int failures, boolean spilled) {
            span.setAttribute(FAILOVER, (long) failures);
            if (spilled) {
                span.setAttribute(SPILLED, true);
            }
        }

        @Override
        public void fail(Throwable cause) {
            span.recordException(cause);
            span.setStatus(StatusCode.ERROR, String.valueOf(cause.getMessage()));
            span.end();
        }

        @Override
        public void end() {
            span.end();
        }
    }
}
