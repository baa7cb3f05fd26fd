package io.ketama.router.forwarding.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.forwarding.channel.RemoteFailure;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a member of this release answers a member of the previous one (channel version 1, which says
 * no version anywhere) on the {@code http} path: only what version 1 knows.
 */
class HttpChannelVersionsTest {
    @Test
    void theHttpPathAnswersAVersionOneForwardWithWhatVersionOneKnows() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            ForwardReceiver receiver = new ForwardReceiver();
            HttpServer http = vertx.createHttpServer().requestHandler(new HttpForwardHandler(receiver)).listen(0, "127.0.0.1")
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            HttpClient client = HttpClient.newHttpClient();
            URI bad = URI.create("http://127.0.0.1:" + http.actualPort() + HttpForwarding.PREFIX);
            HttpResponse<String> v1 = client.send(HttpRequest.newBuilder(bad).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(v1.statusCode()).isEqualTo(400);
            assertThat(v1.headers().firstValue(HttpForwarding.FAILURE)).contains(Integer.toString(RemoteFailure.FAILED.code()));
            assertThat(v1.headers().firstValue(HttpForwarding.VERSION)).contains("1");
            HttpResponse<String> v2 = client.send(HttpRequest.newBuilder(bad).header(HttpForwarding.VERSION, "2").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(v2.headers().firstValue(HttpForwarding.FAILURE)).contains(Integer.toString(RemoteFailure.REFUSED.code()));
            assertThat(v2.headers().firstValue(HttpForwarding.VERSION)).contains("2");
            HttpResponse<String> v9 = client.send(HttpRequest.newBuilder(bad).header(HttpForwarding.VERSION, "9").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(v9.headers().firstValue(HttpForwarding.VERSION)).as("the lower of the two")
                    .contains(Integer.toString(ChannelVersion.CURRENT));
            http.close();
        } finally {
            vertx.close();
        }
    }
}
