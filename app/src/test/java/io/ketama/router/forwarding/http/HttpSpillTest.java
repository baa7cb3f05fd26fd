package io.ketama.router.forwarding.http;

import static io.ketama.router.forwarding.ChannelTests.cause;
import static io.ketama.router.forwarding.ChannelTests.keyServer;
import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.LoopbackPeers;
import io.ketama.router.forwarding.NoUsableEndpointException;
import io.ketama.router.forwarding.SpilledException;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.forwarding.channel.RemoteFailure;
import io.ketama.router.load.FixedLoads;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Channel version 3 (bounded loads) on the {@code http} path: the spillable header is heeded only
 * from a sender that says version 3 or later (an older member's, and a forward of this release, which
 * carries its method and target); the client sets it for a member of this release, and sends a member
 * of version 3 nothing at all.
 */
class HttpSpillTest {
    @Test
    void overHttpTheHeaderIsHeededOnlyFromASenderOfVersionThree() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            ForwardReceiver receiver = new ForwardReceiver();
            receiver.attach(keyServer("owner"), FixedLoads.full());
            HttpServer http = vertx.createHttpServer().requestHandler(new HttpForwardHandler(receiver)).listen(0, "127.0.0.1")
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            HttpClient client = HttpClient.newHttpClient();
            URI key = URI.create("http://127.0.0.1:" + http.actualPort() + HttpForwarding.target("k"));
            HttpResponse<String> v3 = client.send(HttpRequest.newBuilder(key).header(HttpForwarding.VERSION, "3")
                    .header(HttpForwarding.SPILLABLE, "1").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(v3.statusCode()).isEqualTo(503);
            assertThat(v3.headers().firstValue(HttpForwarding.FAILURE)).contains(Integer.toString(RemoteFailure.SPILLED.code()));
            HttpResponse<String> v2 = client.send(HttpRequest.newBuilder(key).header(HttpForwarding.VERSION, "2")
                    .header(HttpForwarding.SPILLABLE, "1").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(v2.statusCode()).as("a version-2 sender cannot read a spill: served").isEqualTo(200);
            HttpResponse<String> plain = client.send(HttpRequest.newBuilder(key).header(HttpForwarding.VERSION, "3").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(plain.statusCode()).isEqualTo(200);
            HttpResponse<String> v5 = client.send(HttpRequest.newBuilder(key).header(HttpForwarding.VERSION, "5")
                    .header(HttpForwarding.METHOD, "GET").header(HttpForwarding.TARGET, "/k")
                    .header(HttpForwarding.SPILLABLE, "1").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(v5.statusCode()).isEqualTo(503);
            assertThat(v5.headers().firstValue(HttpForwarding.FAILURE)).contains(Integer.toString(RemoteFailure.SPILLED.code()));
            http.close();

            // and the client sets it for a member of this release, and sends one that says 3 nothing
            try (LoopbackPeers peers = new LoopbackPeers()) {
                peers.start(Map.of());
                HttpServer owner = vertx.createHttpServer().requestHandler(new HttpForwardHandler(receiver)).listen(0, "127.0.0.1")
                        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
                Member five = peers.start(Map.of(PeerEndpoints.HTTP_PORT, Integer.toString(owner.actualPort()),
                        PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION)).getCluster().getLocalMember();
                Member three = peers.start(Map.of(PeerEndpoints.HTTP_PORT, Integer.toString(owner.actualPort()),
                        PeerEndpoints.CHANNEL_VERSION, "3")).getCluster().getLocalMember();
                peers.awaitMembers(3, Duration.ofSeconds(30));
                HttpForwardClient forwards = new HttpForwardClient(vertx, Duration.ofSeconds(5), Duration.ofSeconds(10), 4);
                try {
                    assertThat(cause(forwards.forward(five, "k", true))).isInstanceOf(SpilledException.class);
                    assertThat(cause(forwards.forward(five, "k", false))).isNull();
                    assertThat(cause(forwards.forward(three, "k", true))).isInstanceOf(NoUsableEndpointException.class)
                            .hasMessageContaining("channel version 3");
                } finally {
                    forwards.close();
                    owner.close();
                }
            }
        } finally {
            vertx.close();
        }
    }
}
