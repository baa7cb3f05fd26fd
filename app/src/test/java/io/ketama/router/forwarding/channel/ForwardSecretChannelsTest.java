package io.ketama.router.forwarding.channel;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.router.forwarding.ForwardFailedException;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.ForwardTransport;
import io.ketama.router.forwarding.LoopbackPeers;
import io.ketama.router.forwarding.binary.BinaryForwardClient;
import io.ketama.router.forwarding.binary.BinaryForwardServer;
import io.ketama.router.forwarding.http.HttpForwardClient;
import io.ketama.router.forwarding.http.HttpForwardHandler;
import io.ketama.router.forwarding.http.HttpForwarding;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.BoundedOrigin;
import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.HttpOrigin;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.Served;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A member that requires the cluster's forward secret, over real TCP on 127.0.0.1 between real
 * members: forwards that show it are served on both the binary channel and the {@code http}
 * path; a forward that shows none or another is refused with a failure the sender fails over on,
 * and the key is neither fetched nor cached there.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForwardSecretChannelsTest {

    private static final ForwardSecret SECRET = ForwardSecret.of("this-cluster-shares-0123456789");
    private static final ForwardSecret OTHER = ForwardSecret.of("another-cluster-0123456789");

    private final LoopbackPeers peers = new LoopbackPeers();
    private final List<ForwardTransport> clients = new ArrayList<>();
    private final AtomicInteger originFetches = new AtomicInteger();
    private Vertx callerVertx;
    private BinaryForwardServer binary;
    private HttpServer http;
    private KeyServer ownerKeys;
    private Member owner;

    @BeforeAll
    void start() throws Exception {
        callerVertx = peers.eventLoops(2);
        Vertx ownerVertx = peers.eventLoops(2);
        ForwardReceiver receiver = new ForwardReceiver();
        binary = BinaryForwardServer.start(ownerVertx, "127.0.0.1", 0, receiver, SECRET);
        HttpForwardHandler handler = new HttpForwardHandler(receiver, SECRET);
        http = ownerVertx.createHttpServer().requestHandler(handler).listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);

        peers.start(Map.of());
        HazelcastInstance ownerHz = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(binary.port()),
                PeerEndpoints.HTTP_PORT, Integer.toString(http.actualPort()),
                PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION));
        peers.awaitMembers(2, Duration.ofSeconds(30));
        owner = ownerHz.getCluster().getLocalMember();
        DemoOrigin demo = new DemoOrigin(Duration.ZERO);
        ownerKeys = new KeyServer(new LocalCache(1 << 20), new BoundedOrigin(key -> {
            originFetches.incrementAndGet();
            return demo.fetch(key);
        }, 64), Members.address(owner));
        receiver.attach(ownerKeys);
    }

    @AfterAll
    void stop() {
        clients.forEach(ForwardTransport::close);
        binary.close();
        http.close();
        peers.close();
    }

    private ForwardTransport binaryClient(ForwardSecret secret) {
        ForwardTransport client = new BinaryForwardClient(callerVertx, Duration.ofSeconds(5), Duration.ofSeconds(30), secret, HttpOrigin.DEFAULT_MAX_BODY_BYTES,
                new BodyBudget(BodyBudget.defaultBytes(HttpOrigin.DEFAULT_MAX_BODY_BYTES)));
        clients.add(client);
        return client;
    }

    private ForwardTransport httpClient(ForwardSecret secret) {
        ForwardTransport client = new HttpForwardClient(callerVertx, Duration.ofSeconds(5), Duration.ofSeconds(30), 4, secret);
        clients.add(client);
        return client;
    }

    private CompletableFuture<Served> forward(ForwardTransport client, String key) {
        return client.forward(owner, key).toCompletableFuture();
    }

    @Test
    void forwardsThatShowTheSecretAreServedOnBothChannels() throws Exception {
        for (ForwardTransport client : List.of(binaryClient(SECRET), httpClient(SECRET))) {
            String key = "shown-" + client.kind();
            Served served = forward(client, key).get(30, TimeUnit.SECONDS);
            assertThat(served.answer().body()).isEqualTo(DemoOrigin.contentFor(key));
            assertThat(ownerKeys.cache().peek(key)).isNotNull();
            assertThat(forward(client, key + "-2").get(30, TimeUnit.SECONDS).answer().body()).isEqualTo(DemoOrigin.contentFor(key + "-2"));
        }
    }

    @Test
    void aForwardThatShowsNoSecretOrAnotherIsRefusedAndNothingIsFetched() {
        int fetchesBefore = originFetches.get();
        List<ForwardTransport> strangers = List.of(binaryClient(ForwardSecret.NONE), binaryClient(OTHER),
                httpClient(ForwardSecret.NONE), httpClient(OTHER));
        for (int i = 0; i < strangers.size(); i++) {
            String key = "refused-" + i;
            assertThat(forward(strangers.get(i), key)).as("%s, client %d", strangers.get(i).kind(), i)
                    .failsWithin(30, TimeUnit.SECONDS)
                    .withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(ForwardFailedException.class) // the failover chain tries the next candidate
                    .withMessageContaining("forward secret");
            assertThat(ownerKeys.cache().peek(key)).isNull();
        }
        assertThat(originFetches.get()).isEqualTo(fetchesBefore);
    }

    @Test
    void theHttpPathAnswersAStrangerWith401() throws Exception {
        HttpClient plain = HttpClient.newHttpClient();
        URI uri = URI.create("http://127.0.0.1:" + http.actualPort() + HttpForwarding.target("door-1"));
        HttpResponse<String> without = plain.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(without.statusCode()).isEqualTo(401);
        assertThat(without.headers().firstValue("WWW-Authenticate")).contains(HttpForwarding.SECRET);
        assertThat(without.body()).contains("ketama.router.forward.secret");
        assertThat(ownerKeys.cache().peek("door-1")).isNull();

        HttpResponse<String> with = plain.send(HttpRequest.newBuilder(uri).header(HttpForwarding.SECRET, SECRET.text()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(with.statusCode()).isEqualTo(200);
        assertThat(ownerKeys.cache().peek("door-1")).isNotNull();
    }

    @Test
    void aRefusedBinaryConnectionServesNothingSentAfterItsFirstFrame() {
        ForwardTransport stranger = binaryClient(ForwardSecret.NONE);
        List<CompletableFuture<Served>> burst = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            burst.add(forward(stranger, "burst-" + i));
        }
        for (int i = 0; i < burst.size(); i++) {
            assertThat(burst.get(i)).failsWithin(30, TimeUnit.SECONDS).withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(ForwardFailedException.class);
            assertThat(ownerKeys.cache().peek("burst-" + i)).isNull();
        }
    }
}
