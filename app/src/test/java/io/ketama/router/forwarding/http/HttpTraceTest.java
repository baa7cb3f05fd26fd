package io.ketama.router.forwarding.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.LoopbackPeers;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.tracing.RouteSpan;
import io.ketama.router.tracing.TraceContext;
import io.ketama.router.tracing.Tracing;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Channel version 4 (trace context) on the {@code http} transport: a traced forward carries the W3C
 * headers to a member of version 4 only.
 */
class HttpTraceTest {
    private static final TraceContext TRACE = new TraceContext("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "vendor=opaque,other=x");

    /** Records the context each forwarded key came with; makes no span. */
    private static final class Recording implements Tracing {
        final List<String> seen = Collections.synchronizedList(new ArrayList<>());

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

    private static KeyServer keyServer() {
        return new KeyServer(new LocalCache(1 << 20), new DemoOrigin(Duration.ZERO), "owner");
    }

    @Test
    void overHttpATracedForwardCarriesTheW3cHeadersToAMemberOfVersionFourOnly() throws Exception {
        Vertx vertx = Vertx.vertx();
        try (LoopbackPeers peers = new LoopbackPeers()) {
            ForwardReceiver receiver = new ForwardReceiver();
            Recording tracing = new Recording();
            receiver.tracing(tracing);
            receiver.attach(keyServer());
            io.vertx.core.http.HttpServer owner = vertx.createHttpServer().requestHandler(new HttpForwardHandler(receiver))
                    .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            peers.start(Map.of());
            Member v4 = peers.start(Map.of(PeerEndpoints.HTTP_PORT, Integer.toString(owner.actualPort()),
                    PeerEndpoints.CHANNEL_VERSION, "4")).getCluster().getLocalMember();
            Member v3 = peers.start(Map.of(PeerEndpoints.HTTP_PORT, Integer.toString(owner.actualPort()),
                    PeerEndpoints.CHANNEL_VERSION, "3")).getCluster().getLocalMember();
            peers.awaitMembers(3, Duration.ofSeconds(30));
            HttpForwardClient forwards = new HttpForwardClient(vertx, Duration.ofSeconds(5), Duration.ofSeconds(10), 4);
            try {
                assertThat(forwards.forward(v4, "a", false, TRACE).toCompletableFuture().get(10, TimeUnit.SECONDS).answer().status())
                        .isEqualTo(200);
                forwards.forward(v3, "b", false, TRACE).toCompletableFuture().get(10, TimeUnit.SECONDS);
                forwards.forward(v4, "c", false, null).toCompletableFuture().get(10, TimeUnit.SECONDS);
            } finally {
                forwards.close();
                owner.close();
            }
            assertThat(tracing.seen).containsExactly("a " + TRACE.traceparent() + " " + TRACE.tracestate(), "b none", "c none");
        } finally {
            vertx.close();
        }
    }
}
