package io.ketama.router.forwarding.http;

import static io.ketama.router.forwarding.ChannelTests.TRACE;
import static io.ketama.router.forwarding.ChannelTests.keyServer;
import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import io.ketama.router.forwarding.ChannelTests;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.LoopbackPeers;
import io.ketama.router.forwarding.NoUsableEndpointException;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Channel version 4 (trace context) on the {@code http} transport: a traced forward carries the W3C
 * headers to a member of this release (an untraced one none); a member of version 4 is sent nothing.
 */
class HttpTraceTest {
    @Test
    void overHttpATracedForwardCarriesTheW3cHeadersToAMemberOfThisReleaseAndNothingGoesToAnOlderOne() throws Exception {
        Vertx vertx = Vertx.vertx();
        try (LoopbackPeers peers = new LoopbackPeers()) {
            ForwardReceiver receiver = new ForwardReceiver();
            ChannelTests.RecordedTraces tracing = new ChannelTests.RecordedTraces();
            receiver.tracing(tracing);
            receiver.attach(keyServer("owner"));
            io.vertx.core.http.HttpServer owner = vertx.createHttpServer().requestHandler(new HttpForwardHandler(receiver))
                    .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            peers.start(Map.of());
            Member v5 = peers.start(Map.of(PeerEndpoints.HTTP_PORT, Integer.toString(owner.actualPort()),
                    PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION)).getCluster().getLocalMember();
            Member v4 = peers.start(Map.of(PeerEndpoints.HTTP_PORT, Integer.toString(owner.actualPort()),
                    PeerEndpoints.CHANNEL_VERSION, "4")).getCluster().getLocalMember();
            peers.awaitMembers(3, Duration.ofSeconds(30));
            HttpForwardClient forwards = new HttpForwardClient(vertx, Duration.ofSeconds(5), Duration.ofSeconds(10), 4);
            try {
                assertThat(forwards.forward(v5, "a", false, TRACE).toCompletableFuture().get(10, TimeUnit.SECONDS).answer().status())
                        .isEqualTo(200);
                assertThat(ChannelTests.cause(forwards.forward(v4, "b", false, TRACE))).isInstanceOf(NoUsableEndpointException.class)
                        .hasMessageContaining("channel version 4");
                forwards.forward(v5, "c", false, null).toCompletableFuture().get(10, TimeUnit.SECONDS);
            } finally {
                forwards.close();
                owner.close();
            }
            assertThat(tracing.seen).containsExactly("a " + TRACE.traceparent() + " " + TRACE.tracestate(), "c none");
        } finally {
            vertx.close();
        }
    }
}
