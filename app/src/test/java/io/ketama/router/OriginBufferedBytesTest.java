package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.ketama.router.forwarding.binary.BinaryForwardClient;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.HttpOrigin;
import io.ketama.router.serving.OverloadedException;
import io.ketama.router.serving.Served;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The bytes of origin bodies that this member's fetches under way hold together are bounded by
 * {@code ketama.router.admission.max-buffered-bytes} (96 KiB here, answers of at most 64 KiB): with one
 * answer of 64 KiB held half-sent at the origin, a fetch whose body does not fit in the rest is
 * refused with a 503 {@code overloaded} problem and {@code Retry-After}, from its
 * {@code Content-Length} before its body is read, or as its bytes arrive without one; nothing is
 * cached, every request waiting for that fetch gets the problem, and once the held answer is done
 * its bytes are back (the gauge reads 0: released once, not leaked, not twice). Alike when this
 * member serves a key as its owner, when another member forwarded it the key (over the binary
 * channel), and when it fetches for a request no candidate could serve (a bypass). A real HTTP
 * origin and members on 127.0.0.1.
 */
@QuarkusTest
@TestProfile(OriginBufferedBytesTest.Budget.class)
class OriginBufferedBytesTest extends HttpOriginClusterTest {

    private static final int LIMIT = HttpOriginProfile.MAX_BODY_BYTES;
    private static final int BUDGET = 96 * 1024;
    private static final String GONE = "budget-gone";

    /**
     * {@link HttpOriginProfile} with a budget that holds one answer of the largest size, not two, and
     * an origin time limit past every wait here (a held answer must stay held, not time out).
     */
    public static class Budget extends HttpOriginProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(super.getConfigOverrides());
            config.put("ketama.router.admission.max-buffered-bytes", "96K");
            config.put("ketama.router.origin.timeout", "120s");
            return config;
        }
    }

    @Inject
    CacheAdmission admission;

    /** The one member with the feature {@link #GONE}, serving nothing: this member fetches its keys as bypasses. */
    private TestMember gone;
    private final List<CompletableFuture<Void>> gates = new ArrayList<>();
    private final Set<String> used = new HashSet<>();
    private ExecutorService clients;
    private Vertx forwarderLoops;
    private BinaryForwardClient forwarder;

    @Override
    String keyPrefix() {
        return "buffered-";
    }

    @Override
    void addMembers() throws Exception {
        super.addMembers();
        gone = cluster.add(Set.of(GONE));
        gone.stopServing();
        clients = Executors.newFixedThreadPool(16);
        forwarderLoops = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        forwarder = new BinaryForwardClient(forwarderLoops, Duration.ofSeconds(10), Duration.ofSeconds(60), ForwardSecret.NONE, HttpOrigin.DEFAULT_MAX_BODY_BYTES,
                new BodyBudget(BodyBudget.defaultBytes(HttpOrigin.DEFAULT_MAX_BODY_BYTES)));
    }

    @AfterEach
    void releaseHeldAnswers() {
        gates.forEach(gate -> gate.complete(null));
        gates.clear();
        Cluster.await(() -> "every fetch's bytes given back; the budget holds " + buffered(), () -> buffered() == 0);
    }

    @AfterAll
    void stopClients() {
        clients.shutdownNow();
        forwarder.close();
        forwarderLoops.close();
    }

    /** Completing it sends the rest of the answers held on it. */
    private CompletableFuture<Void> gate() {
        CompletableFuture<Void> gate = new CompletableFuture<>();
        gates.add(gate);
        return gate;
    }

    /** A key no test here used and the origin was never asked for, owned by this member. */
    private String freshLocalKey() {
        return fresh(Set.of(), app());
    }

    /** A fresh key (unused here, never asked of the origin) that {@code owner} owns among the members with {@code features}. */
    private String fresh(Set<String> features, com.hazelcast.cluster.Member owner) {
        String key = cluster.keyWhere(features, s -> is(s.owner(), owner), k -> origin.requests(k) == 0 && !used.contains(k));
        used.add(key);
        return key;
    }

    /** The budget's gauge on {@code /q/metrics}: bytes the fetches under way hold; -1 where there is none. */
    private long buffered() {
        Matcher m = Pattern.compile("(?m)^ketama_router_admission_buffered_bytes(?:\\{[^}]*})? (\\S+)$")
                .matcher(given().get("/q/metrics").then().statusCode(200).extract().asString());
        return m.find() ? (long) Double.parseDouble(m.group(1)) : -1;
    }

    /** Holds an answer of {@link #LIMIT} bytes to a fresh key of this member half-sent; waits until its fetch holds them. */
    private Future<Response> holdOneLargestAnswer() {
        String key = freshLocalKey();
        origin.answer(key, HttpTestOrigin.Answer.held(new byte[LIMIT], false, 1024, gate()));
        Future<Response> held = send(key, null);
        Cluster.await(() -> "the held fetch to reserve " + LIMIT + " bytes; the budget holds " + buffered(),
                () -> buffered() == LIMIT);
        return held;
    }

    private Future<Response> send(String key, String features) {
        return clients.submit(() -> features == null ? given().get("/cache/" + key)
                : given().header("X-Ketama-Features", features).get("/cache/" + key));
    }

    private static void assertOverloaded(Response answer, String detail) {
        answer.then().statusCode(503)
                .contentType(Problem.MEDIA_TYPE)
                .header("Retry-After", "1")
                .body("type", equalTo("urn:ketama-router:problem:overloaded"))
                .body("detail", containsString("ketama.router.admission.max-buffered-bytes"))
                .body("detail", containsString(detail));
    }

    private static void assertServedWhole(Response answer, String cache) {
        answer.then().statusCode(200).header(CacheAnswers.CACHE, cache);
        assertThat(answer.asByteArray()).hasSize(LIMIT);
    }

    @Test
    void ofTwoAnswersThatDoNotFitTogetherOneIsRefusedFromItsContentLengthWhileBothBodiesAreHeld() throws Exception {
        CompletableFuture<Void> rest = gate();
        String first = freshLocalKey();
        String second = freshLocalKey();
        origin.answer(first, HttpTestOrigin.Answer.held(new byte[LIMIT], false, 1024, rest));
        origin.answer(second, HttpTestOrigin.Answer.held(new byte[LIMIT], false, 1024, rest));
        Future<Response> a = send(first, null);
        Future<Response> b = send(second, null);

        // whichever head arrives second finds no room: refused before its body (held at the origin) is read
        Cluster.await("one of two answers of " + LIMIT + " bytes refused while the origin holds both bodies",
                () -> a.isDone() || b.isDone());
        boolean firstRefused = a.isDone();
        Future<Response> refused = firstRefused ? a : b;
        Future<Response> taken = firstRefused ? b : a;
        String refusedKey = firstRefused ? first : second;
        assertOverloaded(refused.get(), "an answer of " + LIMIT + " bytes (its Content-Length)");
        assertThat(taken).as("the fetch that fits goes on").isNotDone();
        assertThat(buffered()).as("only the fetch that fits holds bytes").isEqualTo(LIMIT);
        assertThat(given().get("/q/metrics").asString()).contains("ketama_router_admission_max_buffered_bytes " + BUDGET + ".0");

        rest.complete(null);
        assertServedWhole(taken.get(60, TimeUnit.SECONDS), "MISS");
        assertThat(localCache.peek(refusedKey)).as("nothing cached from the refused fetch").isNull();
        Cluster.await(() -> "the bytes given back; the budget holds " + buffered(), () -> buffered() == 0);

        origin.reset(refusedKey);
        Response later = given().get("/cache/" + refusedKey);
        later.then().statusCode(200).header(CacheAnswers.CACHE, "MISS");
        assertThat(later.asByteArray()).isEqualTo(HttpTestOrigin.defaultBody(refusedKey));
    }

    @Test
    void anAnswerWithoutContentLengthIsRefusedAsItsBytesPassTheBudget() throws Exception {
        CompletableFuture<Void> rest = gate();
        String first = freshLocalKey();
        origin.answer(first, HttpTestOrigin.Answer.held(new byte[LIMIT], true, 60 * 1024, rest));
        Future<Response> held = send(first, null);
        Cluster.await(() -> "60 KiB of a chunked answer held; the budget holds " + buffered(), () -> buffered() == 60 * 1024);

        String second = freshLocalKey();
        origin.answer(second, new HttpTestOrigin.Answer(200, "application/octet-stream", Map.of(), new byte[LIMIT], true));
        assertOverloaded(given().get("/cache/" + second), "of an answer without Content-Length");
        assertThat(localCache.peek(second)).isNull();
        assertThat(held).isNotDone();

        rest.complete(null);
        assertServedWhole(held.get(60, TimeUnit.SECONDS), "MISS");
    }

    @Test
    void everyRequestWaitingForARefusedFetchGetsTheProblemAndNothingIsCached() throws Exception {
        Future<Response> holder = holdOneLargestAnswer();
        String key = freshLocalKey();
        CompletableFuture<Void> head = gate();
        origin.answer(key, HttpTestOrigin.Answer.held(new byte[LIMIT], false, -1, head));
        List<Future<Response>> waiting = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            waiting.add(send(key, null));
        }
        // all 8 under way here, the one fetch for them asked of the origin, which holds even the head
        Cluster.await(() -> "8 requests waiting on one fetch; under way " + admission.inFlight() + ", fetches "
                + origin.requests(key), () -> admission.inFlight() == 9 && origin.requests(key) == 1);
        head.complete(null);
        for (Future<Response> answer : waiting) {
            assertOverloaded(answer.get(60, TimeUnit.SECONDS), "its Content-Length");
        }
        assertThat(origin.requests(key)).as("one fetch answered all 8").isEqualTo(1);
        assertThat(localCache.peek(key)).isNull();
        assertThat(localCache.fetchesUnderWay()).as("only the holder's fetch is left").isEqualTo(1);
        assertThat(holder).isNotDone();
    }

    @Test
    void aKeyForwardedToThisMemberAsItsOwnerIsAnsweredOverloaded() throws Exception {
        Future<Response> holder = holdOneLargestAnswer();
        String key = freshLocalKey();
        origin.answer(key, new HttpTestOrigin.Answer(200, "application/octet-stream", Map.of(), new byte[LIMIT], false));

        // another member's forward over the binary channel: the owner's refusal reaches it as OverloadedException,
        // which its failover chain treats as a busy member (the next candidate, or a 503 when none has room)
        assertThat(forwarder.forward(app(), key).toCompletableFuture()).failsWithin(60, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(OverloadedException.class)
                .withMessageContaining("ketama.router.admission.max-buffered-bytes");
        assertThat(localCache.peek(key)).isNull();

        gates.forEach(gate -> gate.complete(null));
        assertServedWhole(holder.get(60, TimeUnit.SECONDS), "MISS");
        Served served = forwarder.forward(app(), key).toCompletableFuture().get(60, TimeUnit.SECONDS);
        assertThat(served.answer().body()).hasSize(LIMIT);
    }

    @Test
    void aBypassIsRefusedAlike() throws Exception {
        Future<Response> holder = holdOneLargestAnswer();
        String key = fresh(Set.of(GONE), gone.member());
        origin.answer(key, new HttpTestOrigin.Answer(200, "application/octet-stream", Map.of(), new byte[LIMIT], false));

        // its only candidate serves nothing, so this member fetches it itself, without caching
        assertOverloaded(given().header("X-Ketama-Features", GONE).get("/cache/" + key), "its Content-Length");

        gates.forEach(gate -> gate.complete(null));
        assertServedWhole(holder.get(60, TimeUnit.SECONDS), "MISS");
        Response bypass = given().header("X-Ketama-Features", GONE).get("/cache/" + key);
        assertServedWhole(bypass, "BYPASS");
        bypass.then().header(CacheAnswers.SERVED_BY, appAddress());
    }
}
