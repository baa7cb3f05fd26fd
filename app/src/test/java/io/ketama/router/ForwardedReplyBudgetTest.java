package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.ketama.router.serving.HttpOrigin;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The replies this member receives to its forwards are held in the same budget as its origin
 * bodies ({@code ketama.router.admission.max-buffered-bytes}, 40 MiB here, bodies of 16 MiB), from
 * the reply's head until the answer is written to the client: with two replies held (their clients
 * read nothing, so the 16 MiB stay in this member's buffers, far past what a loopback socket
 * takes), a third does not fit and is answered 503 {@code overloaded} with {@code Retry-After} at
 * once, neither failed over to the other candidate nor fetched here as a bypass, the owner's
 * breaker untouched; a reply that fits is served meanwhile; the held replies are served whole, and
 * each gives its bytes back once its client has read it or gone (the gauge back to 0). An origin
 * answer this member is fetching holds the same budget. Real members serving from a real HTTP
 * origin, clients on sockets, all on 127.0.0.1.
 */
@QuarkusTest
@TestProfile(ForwardedReplyBudgetTest.Budget.class)
class ForwardedReplyBudgetTest extends ClusterTest {

    private static final int BODY = 16 * 1024 * 1024;
    private static final long BUDGET = 40L * 1024 * 1024;
    /** Only the two members {@code b} and {@code c} have it: the keys asked with it are never this member's. */
    private static final String BIG = "big";

    /** The app behind a real HTTP origin, taking bodies of 16 MiB and holding 40 MiB of them at most. */
    public static class Budget extends HttpOriginProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(super.getConfigOverrides());
            config.put("ketama.router.origin.max-body-bytes", Integer.toString(BODY));
            config.put("ketama.router.admission.max-buffered-bytes", Long.toString(BUDGET));
            config.put("ketama.router.origin.timeout", "120s"); // a held answer must stay held
            config.put("ketama.router.forward.timeout", "60s"); // 16 MiB on a loaded machine
            return config;
        }
    }

    @ConfigProperty(name = "ketama.router.origin.base-url")
    String baseUrl;

    private HttpTestOrigin origin;
    private TestMember b;
    private TestMember c;
    private final Set<String> used = new HashSet<>();
    private final List<StalledClient> clients = new ArrayList<>();
    private final List<CompletableFuture<Void>> gates = new ArrayList<>();
    private ExecutorService senders;

    @Override
    String keyPrefix() {
        return "reply-budget-";
    }

    @Override
    void addMembers() throws Exception {
        origin = closeAfterMembers(HttpTestOrigin.start(URI.create(baseUrl).getPort()));
        HttpOrigin membersOrigin = new HttpOrigin(origin.vertx(), baseUrl, Duration.ofSeconds(60), 8, BODY);
        closeAfterMembers(membersOrigin::close);
        // caches that hold a few bodies of 16 MiB: their keys are forwarded hits once fetched
        b = cluster.addWithCache(Set.of(BIG), membersOrigin, 64L << 20);
        c = cluster.addWithCache(Set.of(BIG), membersOrigin, 64L << 20);
        senders = Executors.newFixedThreadPool(4);
    }

    @AfterEach
    void letEverythingGo() {
        gates.forEach(gate -> gate.complete(null));
        gates.clear();
        clients.forEach(StalledClient::close);
        clients.clear();
        Cluster.await(() -> "every body's bytes given back; the budget holds " + buffered(), () -> buffered() == 0);
    }

    @AfterAll
    void stopSenders() {
        senders.shutdownNow();
    }

    /** A fresh key (unused here, never asked of the origin) that {@code owner} owns among the members with {@code features}. */
    private String fresh(Set<String> features, com.hazelcast.cluster.Member owner) {
        String key = cluster.keyWhere(features, s -> is(s.owner(), owner), k -> origin.requests(k) == 0 && !used.contains(k));
        used.add(key);
        return key;
    }

    /** A fresh key of {@code owner} whose origin answer is a 200 of {@link #BODY} bytes. */
    private String large(TestMember owner) {
        String key = fresh(Set.of(BIG), owner.member());
        origin.answer(key, new HttpTestOrigin.Answer(200, "application/octet-stream", Map.of("Cache-Control", "max-age=3600"), body(key),
                false));
        return key;
    }

    /** A body of {@link #BODY} bytes that names its key in its first bytes. */
    private static byte[] body(String key) {
        byte[] body = new byte[BODY];
        byte[] name = key.getBytes(StandardCharsets.ISO_8859_1);
        System.arraycopy(name, 0, body, 0, name.length);
        return body;
    }

    /** The budget's gauge on {@code /q/metrics}: bytes of received bodies this member holds; -1 where there is none. */
    private long buffered() {
        Matcher m = Pattern.compile("(?m)^ketama_router_admission_buffered_bytes(?:\\{[^}]*})? (\\S+)$")
                .matcher(given().get("/q/metrics").then().statusCode(200).extract().asString());
        return m.find() ? (long) Double.parseDouble(m.group(1)) : -1;
    }

    private void awaitBuffered(long bytes, String why) {
        Cluster.await(() -> why + ": the budget holds " + buffered() + ", not " + bytes, () -> buffered() == bytes);
    }

    private StalledClient stalled(String key) throws IOException {
        StalledClient client = new StalledClient(key);
        clients.add(client);
        return client;
    }

    @Test
    void aReplyPastWhatTheHeldRepliesLeaveIsA503AndTheHeldOnesAreServedWholeThenGiveTheirBytesBack() throws Exception {
        String miss = large(b);
        String hit = large(b);
        // the owner has it cached: its reply here is a forwarded hit
        assertThat(b.keyServer.serve(hit).toCompletableFuture().get(60, TimeUnit.SECONDS).answer().body()).hasSize(BODY);
        String refused = large(c);
        String small = fresh(Set.of(BIG), c.member());

        StalledClient missClient = stalled(miss);
        awaitBuffered(BODY, "a forwarded miss held while its client reads nothing");
        StalledClient hitClient = stalled(hit);
        awaitBuffered(2L * BODY, "a forwarded hit held beside it");

        // 8 MiB left: the third reply does not fit, and no other candidate's would either
        Response answer = given().header(FeaturesHeader.NAME, BIG).get("/cache/" + refused);
        answer.then().statusCode(503)
                .contentType(Problem.MEDIA_TYPE)
                .header("Retry-After", "1")
                .header(CacheAnswers.FAILOVER, nullValue())
                .body("type", equalTo("urn:ketama-router:problem:overloaded"))
                .body("detail", containsString("ketama.router.admission.max-buffered-bytes"))
                .body("detail", containsString("no room for a reply of " + BODY + " bytes from member " + c.address()));
        assertThat(c.cached(refused)).as("its owner served and cached it").isNotNull();
        assertThat(b.cached(refused)).as("not failed over to the other candidate").isNull();
        assertThat(origin.requests(refused)).as("fetched once, by its owner: no other candidate, no bypass").isEqualTo(1);
        assertThat(buffered()).as("the refused reply holds nothing").isEqualTo(2L * BODY);

        // a reply that fits is served meanwhile
        Response fits = given().header(FeaturesHeader.NAME, BIG).get("/cache/" + small);
        fits.then().statusCode(200).header(CacheAnswers.SERVED_BY, c.address()).header(CacheAnswers.CACHE, "MISS");
        assertThat(fits.asByteArray()).isEqualTo(HttpTestOrigin.defaultBody(small));
        awaitBuffered(2L * BODY, "the small reply given back once written");

        // the held replies: one read whole (its bytes back once written), one whose client leaves
        StalledClient.Answer read = hitClient.readAll();
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.header(CacheAnswers.CACHE)).isEqualTo("HIT");
        assertThat(read.header(CacheAnswers.SERVED_BY)).isEqualTo(b.address());
        assertThat(read.body()).isEqualTo(body(hit));
        awaitBuffered(BODY, "the hit's bytes given back once its client read it");
        missClient.close();
        awaitBuffered(0, "the miss's bytes given back once its client left");

        // with room again the refused key is served, from its owner's cache
        Response later = given().header(FeaturesHeader.NAME, BIG).get("/cache/" + refused);
        later.then().statusCode(200).header(CacheAnswers.SERVED_BY, c.address()).header(CacheAnswers.CACHE, "HIT");
        assertThat(later.asByteArray()).isEqualTo(body(refused));
        assertThat(origin.requests(refused)).isEqualTo(1);
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        for (TestMember member : List.of(b, c)) {
            assertThat(metrics).as("%s's guard", member.address())
                    .contains("ketama_router_forward_breaker_open{member=\"" + member.address() + "\"} 0.0")
                    .contains("ketama_router_forward_breaker_opened_total{member=\"" + member.address() + "\"} 0.0")
                    .contains("ketama_router_forward_retries_total{member=\"" + member.address() + "\"} 0.0");
        }
    }

    @Test
    void anOriginAnswerThisMemberIsFetchingAndTheRepliesItHoldsShareTheBudget() throws Exception {
        // an answer to this member's own miss, held half-sent by the origin: its Content-Length reserved
        String local = fresh(Set.of(), app());
        CompletableFuture<Void> rest = new CompletableFuture<>();
        gates.add(rest);
        origin.answer(local, HttpTestOrigin.Answer.held(body(local), false, 1024, rest));
        Future<Response> fetching = senders.submit(() -> given().get("/cache/" + local));
        awaitBuffered(BODY, "an origin answer held half-sent");
        String miss = large(b);
        StalledClient held = stalled(miss);
        awaitBuffered(2L * BODY, "a forwarded reply held beside it");

        String refused = large(c);
        given().header(FeaturesHeader.NAME, BIG).get("/cache/" + refused).then().statusCode(503)
                .header("Retry-After", "1")
                .header(CacheAnswers.FAILOVER, nullValue())
                .body("detail", containsString("no room for a reply of " + BODY + " bytes"));
        assertThat(origin.requests(refused)).isEqualTo(1);

        rest.complete(null);
        Response fetched = fetching.get(60, TimeUnit.SECONDS);
        fetched.then().statusCode(200).header(CacheAnswers.CACHE, "MISS").header(CacheAnswers.SERVED_BY, appAddress());
        assertThat(fetched.asByteArray()).isEqualTo(body(local));
        awaitBuffered(BODY, "the origin answer's bytes given back once fetched (it is in the cache now)");
        StalledClient.Answer answer = held.readAll();
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo(body(miss));
        awaitBuffered(0, "the reply's bytes given back once written");
    }

    /**
     * A client that sends {@code GET /cache/<key>} (with the features {@link #BIG}) on a socket of
     * its own and reads nothing until asked: its receive window is a few KiB, so a reply of 16 MiB
     * stays almost whole in the member's buffers, unwritten, until it reads.
     */
    private static final class StalledClient implements AutoCloseable {

        record Answer(int status, Map<String, String> headers, byte[] body) {
            String header(String name) {
                return headers.get(name.toLowerCase(Locale.ROOT));
            }
        }

        private final Socket socket;

        StalledClient(String key) throws IOException {
            socket = new Socket();
            socket.setReceiveBufferSize(4096); // before connecting: the window it offers
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), RestAssured.port), 30_000);
            socket.setSoTimeout(60_000);
            String request = "GET /cache/" + key + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + FeaturesHeader.NAME + ": " + BIG
                    + "\r\nConnection: close\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
        }

        /** Reads the whole answer (the member closes the connection after it). */
        Answer readAll() throws IOException {
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream raw = new ByteArrayOutputStream();
            in.transferTo(raw);
            byte[] bytes = raw.toByteArray();
            int end = indexOfHeadEnd(bytes);
            if (end < 0) {
                throw new IOException("no complete HTTP head in " + bytes.length + " bytes");
            }
            String[] lines = new String(bytes, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
            Map<String, String> headers = new HashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
            return new Answer(Integer.parseInt(lines[0].split(" ")[1]), headers,
                    java.util.Arrays.copyOfRange(bytes, end + 4, bytes.length));
        }

        private static int indexOfHeadEnd(byte[] bytes) {
            for (int i = 0; i + 3 < bytes.length; i++) {
                if (bytes[i] == '\r' && bytes[i + 1] == '\n' && bytes[i + 2] == '\r' && bytes[i + 3] == '\n') {
                    return i;
                }
            }
            return -1;
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // gone already
            }
        }
    }
}
