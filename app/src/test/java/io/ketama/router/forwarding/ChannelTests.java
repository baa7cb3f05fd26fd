package io.ketama.router.forwarding;

import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.Served;
import io.ketama.router.tracing.RouteSpan;
import io.ketama.router.tracing.TraceContext;
import io.ketama.router.tracing.Tracing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * What the channel-version tests of every transport (spill, trace) share: the owner they forward
 * to, the trace context they send, and how they read a forward's outcome.
 */
public final class ChannelTests {

    /** A W3C trace context with a {@code tracestate}, as a traced forward carries it. */
    public static final TraceContext TRACE = new TraceContext("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "vendor=opaque,other=x");

    private ChannelTests() {
    }

    /** A key server at {@code address} with a 1 MiB cache over an origin that answers at once. */
    public static KeyServer keyServer(String address) {
        return new KeyServer(new LocalCache(1 << 20), new DemoOrigin(Duration.ZERO), address);
    }

    /** The failure {@code stage} ended with, or null when it was served (within 10 s). */
    public static Throwable cause(CompletionStage<Served> stage) {
        try {
            stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Records the context each forwarded key came with ({@code "key traceparent tracestate"}, or {@code "key none"}); makes no span. */
    public static final class RecordedTraces implements Tracing {
        public final List<String> seen = Collections.synchronizedList(new ArrayList<>());

        @Override
        public RouteSpan entry(String key) {
            return null;
        }

        @Override
        public RouteSpan served(String key, TraceContext parent) {
            seen.add(key + " " + (parent == null ? "none" : parent.traceparent() + " " + parent.tracestate()));
            return null;
        }
    }
}
