package io.ketama.router.forwarding.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.LoopbackPeers;
import io.ketama.router.forwarding.NoUsableEndpointException;
import io.ketama.router.forwarding.NotServingException;
import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.forwarding.channel.RemoteFailure;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.OriginRequest;
import io.ketama.router.serving.Served;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Channel version 5 (HTTP caching) on the {@code http} transport, between real members on 127.0.0.1
 * that publish it. A forward carries its method and target ({@code X-Ketama-Forward-Method},
 * {@code X-Ketama-Forward-Target}) and the client's fields as its own, byte for byte (obs-text
 * included); the answer carries the origin's status and fields as its own and its age
 * ({@code X-Ketama-Forward-Age}), from which the receiver ages it; {@code DELETE} of the key's path
 * drops its stored answers (204), or says the member serves no keys (503 {@code NOT_SERVING}). A forward
 * of version 5 without its method or target is a 400 {@code REFUSED}. An older member's forward (no
 * fields) is served as a {@code GET} of {@code /<key>} and answered as that member reads it (status,
 * {@code Content-Type}, {@code Location}, {@code X-Ketama-Cache}) only with an answer any client may have;
 * a member of an older version is sent neither forwards nor invalidations. A stand-in owner endpoint shows
 * what the client sends and reads; a real {@link HttpForwardHandler} what the owner reads and answers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpFetchTest {

    /** Every char a field value may carry: tab, visible ASCII and obs-text. */
    private static final String OBS_TEXT;

    static {
        StringBuilder b = new StringBuilder("\t");
        for (char c = 0x20; c <= 0xFF; c++) {
            if (c != 0x7F) {
                b.append(c);
            }
        }
        OBS_TEXT = b.toString();
    }

    private static final HttpFields CLIENT_FIELDS = HttpFields.of("Accept", "text/html", "accept", "*/*;q=0.1",
            "X-Obs", OBS_TEXT.trim(), "Cookie", "c=\u00e9\u00ff", "Accept-Language", "fr");
    private static final HttpFields ANSWER_FIELDS = HttpFields.of("Content-Type", "text/x-fields", "Cache-Control", "max-age=3600",
            "X-Obs", OBS_TEXT.trim(), "Set-Cookie", "a=1", "Set-Cookie", "b=2");

    private final LoopbackPeers peers = new LoopbackPeers();
    private Vertx vertx;
    private HttpServer standIn;
    private HttpServer owner;
    private Member standInMember;
    private Member ownerMember;
    private Member olderMember;
    private ForwardReceiver receiver;
    private KeyServer ownerKeys;
    private HttpForwardClient client;
    /** What the stand-in was sent: method, URI and header lines of each request. */
    private final List<String> standInSaw = new CopyOnWriteArrayList<>();
    private final List<HttpFields> standInFields = new CopyOnWriteArrayList<>();
    private final AtomicInteger standInRequests = new AtomicInteger();
    private final List<OriginRequest> originAsked = new CopyOnWriteArrayList<>();

    @BeforeAll
    void start() throws Exception {
        vertx = peers.eventLoops(2);
        standIn = vertx.createHttpServer().requestHandler(request -> {
            standInRequests.incrementAndGet();
            standInSaw.add(request.method() + " " + request.uri());
            for (Map.Entry<String, String> h : request.headers()) {
                standInSaw.add(h.getKey() + ": " + h.getValue());
            }
            standInFields.add(HttpForwarding.carried(request.headers(), false));
            String key = HttpForwarding.key(request.uri());
            if (request.method() == HttpMethod.DELETE) {
                if (key.startsWith("stopping")) {
                    request.response().setStatusCode(503).putHeader(HttpForwarding.FAILURE, Integer.toString(RemoteFailure.NOT_SERVING.code()))
                            .end("stopping");
                } else {
                    request.response().setStatusCode(204).end();
                }
                return;
            }
            MultiMap headers = request.response().headers();
            for (int i = 0; i < ANSWER_FIELDS.size(); i++) {
                headers.add(ANSWER_FIELDS.name(i), ANSWER_FIELDS.value(i));
            }
            headers.add(HttpForwarding.CACHE, "STALE").add(HttpForwarding.AGE, "5000").add(HttpForwarding.VERSION, "5");
            request.response().setStatusCode(203).end(Buffer.buffer(new byte[] {1, 2, 3}));
        }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);

        receiver = new ForwardReceiver();
        ownerKeys = new KeyServer(new LocalCache(1 << 20), request -> {
            originAsked.add(request);
            String key = request.target().substring(1);
            HttpFields fields = switch (key) {
                case "private" -> HttpFields.of("Content-Type", "text/plain", "Cache-Control", "private, max-age=60");
                case "moved" -> HttpFields.of("Content-Type", "text/html", "Cache-Control", "max-age=60", "Location", "/elsewhere");
                default -> key.startsWith("fields") ? ANSWER_FIELDS
                        : HttpFields.of("Content-Type", "text/x-shared", "Cache-Control", "max-age=60", "ETag", "\"e\"");
            };
            // 100 s old when it arrived, as an origin's Age would make it
            return CompletableFuture.completedFuture(new OriginAnswer(key.equals("moved") ? 301 : 200, fields, key.getBytes(),
                    System.currentTimeMillis(), 100_000));
        }, "owner");
        receiver.attach(ownerKeys);
        owner = vertx.createHttpServer().requestHandler(new HttpForwardHandler(receiver)).listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);

        peers.start(Map.of());
        standInMember = peers.start(Map.of(PeerEndpoints.HTTP_PORT, Integer.toString(standIn.actualPort()),
                PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION)).getCluster().getLocalMember();
        ownerMember = peers.start(Map.of(PeerEndpoints.HTTP_PORT, Integer.toString(owner.actualPort()),
                PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION)).getCluster().getLocalMember();
        olderMember = peers.start(Map.of(PeerEndpoints.HTTP_PORT, Integer.toString(standIn.actualPort()),
                PeerEndpoints.CHANNEL_VERSION, "4")).getCluster().getLocalMember();
        peers.awaitMembers(4, Duration.ofSeconds(30));
        client = new HttpForwardClient(vertx, Duration.ofSeconds(5), Duration.ofSeconds(30), 4);
    }

    @AfterAll
    void stop() {
        if (client != null) {
            client.close();
        }
        standIn.close();
        owner.close();
        peers.close();
    }

    private static List<String> lines(HttpFields fields) {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            lines.add(fields.name(i) + ": " + fields.value(i));
        }
        return lines;
    }

    @Test
    void aForwardCarriesMethodTargetAndTheClientsFieldsAndReadsTheAnswersFieldsAndAge() throws Exception {
        standInSaw.clear();
        standInFields.clear();
        KeyRequest request = new KeyRequest("k-\u00e9 1", "/k-\u00e9%201?q=\u00ff", new CacheRequest("HEAD", CLIENT_FIELDS));
        long before = System.currentTimeMillis();
        Served served = client.forward(standInMember, request, false, null).toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(standInSaw.get(0)).isEqualTo("GET " + HttpForwarding.target("k-\u00e9 1"));
        assertThat(standInSaw).contains(HttpForwarding.METHOD + ": HEAD", HttpForwarding.TARGET + ": /k-\u00e9%201?q=\u00ff",
                HttpForwarding.VERSION + ": " + ChannelVersion.CURRENT);
        assertThat(lines(standInFields.get(0))).as("the client's fields, as the owner reads them")
                .containsExactlyElementsOf(lines(CLIENT_FIELDS));

        assertThat(served.answer().status()).isEqualTo(203);
        assertThat(lines(served.answer().headers())).as("the answer's fields, as this member reads them")
                .containsExactlyElementsOf(lines(ANSWER_FIELDS));
        assertThat(served.answer().body()).containsExactly(1, 2, 3);
        assertThat(served.cache()).isEqualTo(CacheStatus.STALE);
        assertThat(served.answer().initialAgeMillis()).as("the age it was sent with").isEqualTo(5_000);
        assertThat(served.answer().responseTime()).as("aged from its arrival here").isGreaterThanOrEqualTo(before);
        served.release();
    }

    @Test
    void anInvalidationIsADeleteOfTheKeysPathAndAFailureComesBackAsSuch() throws Exception {
        standInSaw.clear();
        client.invalidate(standInMember, "inv-\u00e9").toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(standInSaw.get(0)).isEqualTo("DELETE " + HttpForwarding.target("inv-\u00e9"));
        assertThat(client.invalidate(standInMember, "stopping-1").toCompletableFuture()).failsWithin(30, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(NotServingException.class);
    }

    @Test
    void aMemberOfAnOlderChannelVersionIsSentNothing() {
        int before = standInRequests.get();
        for (CompletableFuture<?> sent : List.of(client.forward(olderMember, "old-1").toCompletableFuture(),
                client.invalidate(olderMember, "old-1").toCompletableFuture())) {
            assertThat(sent).failsWithin(30, TimeUnit.SECONDS).withThrowableOfType(ExecutionException.class)
                    .withCauseExactlyInstanceOf(NoUsableEndpointException.class)
                    .withMessageContaining("speaks channel version 4");
        }
        assertThat(standInRequests).as("its endpoint was sent nothing").hasValue(before);
    }

    @Test
    void theOwnerServesTheClientsFieldsToItsOriginAndAnswersWithTheOriginsFieldsAndAge() throws Exception {
        KeyRequest request = new KeyRequest("fields-1", "/fields-1", new CacheRequest("GET", CLIENT_FIELDS));
        long before = System.currentTimeMillis();
        Served served = client.forward(ownerMember, request, false, null).toCompletableFuture().get(30, TimeUnit.SECONDS);
        OriginRequest asked = originAsked.stream().filter(r -> r.target().equals("/fields-1")).findFirst().orElseThrow();
        assertThat(lines(asked.headers())).as("what the owner's origin was asked with").containsExactlyElementsOf(lines(CLIENT_FIELDS));
        assertThat(served.answer().status()).isEqualTo(200);
        assertThat(lines(served.answer().headers())).containsExactlyElementsOf(lines(ANSWER_FIELDS));
        assertThat(served.answer().body()).isEqualTo("fields-1".getBytes());
        assertThat(served.cache()).isEqualTo(CacheStatus.MISS);
        assertThat(served.answer().initialAgeMillis()).as("its age when the owner sent it").isBetween(100_000L, 160_000L);
        assertThat(served.answer().responseTime()).isGreaterThanOrEqualTo(before);
        served.release();
    }

    @Test
    void aDeleteDropsTheKeysStoredAnswersOnTheOwnerAndAMemberServingNoKeysSaysSo() throws Exception {
        client.forward(ownerMember, "del-1").toCompletableFuture().get(30, TimeUnit.SECONDS).release();
        assertThat(ownerKeys.cache().peek("del-1")).isNotNull();
        client.invalidate(ownerMember, "del-1").toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(ownerKeys.cache().peek("del-1")).isNull();
        client.forward(ownerMember, "del-1").toCompletableFuture().get(30, TimeUnit.SECONDS).release();
        receiver.detach();
        try {
            assertThat(client.invalidate(ownerMember, "del-1").toCompletableFuture()).failsWithin(30, TimeUnit.SECONDS)
                    .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(NotServingException.class);
        } finally {
            receiver.attach(ownerKeys);
        }
        assertThat(ownerKeys.cache().peek("del-1")).isNotNull();
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder to(String key) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + owner.actualPort() + HttpForwarding.target(key)));
    }

    @Test
    void aVersionFiveForwardWithoutItsMethodOrTargetIsRefused() throws Exception {
        for (HttpRequest.Builder bad : List.of(
                to("r-1").header(HttpForwarding.VERSION, "5").header(HttpForwarding.METHOD, "GET"),
                to("r-1").header(HttpForwarding.VERSION, "5").header(HttpForwarding.TARGET, "/r-1"),
                to("r-1").header(HttpForwarding.VERSION, "5").header(HttpForwarding.METHOD, "GET").header(HttpForwarding.TARGET, "r-1"))) {
            HttpResponse<String> refused = send(bad);
            assertThat(refused.statusCode()).isEqualTo(400);
            assertThat(refused.headers().firstValue(HttpForwarding.FAILURE)).contains(Integer.toString(RemoteFailure.REFUSED.code()));
            assertThat(refused.headers().firstValue(HttpForwarding.VERSION)).contains("5");
            assertThat(refused.body()).contains(HttpForwarding.TARGET);
        }
        assertThat(ownerKeys.cache().peek("r-1")).as("nothing served").isNull();
        HttpResponse<String> whole = send(to("r-1").header(HttpForwarding.VERSION, "5").header(HttpForwarding.METHOD, "GET")
                .header(HttpForwarding.TARGET, "/r-1"));
        assertThat(whole.statusCode()).isEqualTo(200);
        assertThat(whole.headers().firstValue(HttpForwarding.AGE)).isPresent();
        assertThat(whole.headers().firstValue("ETag")).contains("\"e\"");
    }

    @Test
    void anOlderMembersForwardIsServedAsAPlainGetAndAnsweredAsItReadsOnlyWithWhatAnyClientMayHave() throws Exception {
        originAsked.clear();
        HttpResponse<String> shared = send(to("old-shared").header(HttpForwarding.VERSION, "4").header("Accept", "text/html"));
        assertThat(shared.statusCode()).isEqualTo(200);
        assertThat(shared.body()).isEqualTo("old-shared");
        assertThat(shared.headers().firstValue("Content-Type")).contains("text/x-shared");
        assertThat(shared.headers().firstValue(HttpForwarding.CACHE)).contains("MISS");
        assertThat(shared.headers().firstValue(HttpForwarding.VERSION)).contains("4");
        assertThat(shared.headers().firstValue("ETag")).as("the fields version 4 never read are not sent").isEmpty();
        assertThat(shared.headers().firstValue(HttpForwarding.AGE)).isEmpty();
        assertThat(originAsked).hasSize(1);
        assertThat(originAsked.get(0).target()).isEqualTo("/old-shared");
        assertThat(originAsked.get(0).headers().isEmpty()).as("an older member's forward carries no fields: its own are ignored")
                .isTrue();

        HttpResponse<String> moved = send(to("moved").header(HttpForwarding.VERSION, "1"));
        assertThat(moved.statusCode()).isEqualTo(301);
        assertThat(moved.headers().firstValue("Location")).contains("/elsewhere");

        HttpResponse<String> refused = send(to("private").header(HttpForwarding.VERSION, "4"));
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue(HttpForwarding.FAILURE)).contains(Integer.toString(RemoteFailure.REFUSED.code()));
        HttpResponse<String> refusedV1 = send(to("private"));
        assertThat(refusedV1.headers().firstValue(HttpForwarding.FAILURE)).as("to version 1").contains(
                Integer.toString(RemoteFailure.FAILED.code()));
        assertThat(send(to("private").header(HttpForwarding.VERSION, "5").header(HttpForwarding.METHOD, "GET")
                .header(HttpForwarding.TARGET, "/private")).statusCode()).as("to a member of this release").isEqualTo(200);
    }
}
