package io.ketama.router;

import io.ketama.router.serving.KeyedOrigin;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.OriginAnswerTooLargeException;
import io.ketama.router.serving.OriginUnavailableException;
import io.ketama.testing.FreePorts;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * What every forward transport must do, run once per transport (the subclasses): a remote owner
 * serves and caches a forwarded key, with its status, type and bytes; a failing origin there is a
 * 502, not the member's fault; a redirect there comes back with its Location, uncached; an origin
 * answer too large there is a 502 saying so; an owner whose own limit is larger than this member's
 * ({@code ketama.router.origin.max-body-bytes}, 64 KiB here) and answers past it is failed over, the
 * transport usable afterwards; a reply this member has no room to hold
 * ({@code ketama.router.admission.max-buffered-bytes}) is a 503 {@code overloaded}, neither failed
 * over nor retried nor held against the owner, and is served once there is room; a member that
 * stops serving, and one that crashes, are failed over.
 * ({@link ForwardingTest} and {@link FailoverTest} cover the default transport in depth.)
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class TransportsTest extends ClusterTest {

    /** This member's {@code ketama.router.origin.max-body-bytes}. */
    static final int MAX_BODY_BYTES = 64 * 1024;
    /** This member's {@code ketama.router.admission.max-buffered-bytes}: room for one body of the largest size and a half. */
    static final int MAX_BUFFERED_BYTES = 96 * 1024;
    /** The body of every answer of {@link #mid}: within {@link #MAX_BODY_BYTES}, past {@link #ROOM}. */
    static final int MID_BODY_BYTES = 4 * 1024;
    /** What a test leaves free in this member's budget when it holds the rest itself. */
    static final int ROOM = 1024;

    /**
     * Runs the app with {@code ketama.router.forward.transport} set, on a fixed HTTP port (the http
     * transport publishes it), taking bodies of at most {@link #MAX_BODY_BYTES}.
     */
    abstract static class Transport implements QuarkusTestProfile {
        abstract String transport();

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("ketama.router.forward.transport", transport(),
                    "quarkus.http.test-port", Integer.toString(freeHttpPort()),
                    "ketama.router.origin.max-body-bytes", Integer.toString(MAX_BODY_BYTES),
                    "ketama.router.admission.max-buffered-bytes", Integer.toString(MAX_BUFFERED_BYTES));
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(LoopbackCluster.class));
        }
    }

    /** A free port for HTTP, chosen at run time ({@link FreePorts}). */
    static int freeHttpPort() {
        return FreePorts.take();
    }

    TestMember b;
    TestMember c;
    TestMember cutOff;
    TestMember redirecting;
    TestMember tooLarge;
    /** Takes (and answers) bodies larger than this member does: 256 KiB for the keys in {@link #largeKeys}. */
    TestMember larger;
    final Set<String> largeKeys = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Two members with the feature {@code mid} whose answers have bodies of {@link #MID_BODY_BYTES}. */
    TestMember mid;
    TestMember midToo;

    abstract io.ketama.router.forwarding.TransportKind transport();

    @Override
    void addMembers() {
        b = cluster.add(Set.of("edge"));
        c = cluster.add(Set.of("edge"));
        cutOff = cluster.add(Set.of("cut"), KeyedOrigin.asIs(key -> CompletableFuture.failedFuture(
                new OriginUnavailableException("origin http://origin.invalid refused the connection", null))));
        // a redirect that says nothing of its freshness: passed through, asked of the origin each time
        redirecting = cluster.add(Set.of("moved"), KeyedOrigin.asIs(key -> CompletableFuture.completedFuture(
                new OriginAnswer(307, "text/plain", ("see /elsewhere/" + key).getBytes(java.nio.charset.StandardCharsets.UTF_8),
                        "/elsewhere/" + key))));
        tooLarge = cluster.add(Set.of("large"), KeyedOrigin.asIs(key -> CompletableFuture.failedFuture(new OriginAnswerTooLargeException(
                "origin http://origin.invalid answered with a body of 1048576 bytes (its Content-Length); this member takes at most 65536 bytes"))));
        DemoOrigin demo = new DemoOrigin(java.time.Duration.ZERO);
        larger = cluster.add(Set.of("larger"), KeyedOrigin.of(key -> largeKeys.contains(key)
                ? CompletableFuture.completedFuture(new OriginAnswer(200, "application/octet-stream", new byte[256 * 1024]))
                : demo.fetch(key)));
        mid = cluster.add(Set.of("mid"), KeyedOrigin.of(TransportsTest::midAnswer));
        midToo = cluster.add(Set.of("mid"), KeyedOrigin.of(TransportsTest::midAnswer));
    }

    private static CompletableFuture<OriginAnswer> midAnswer(String key) {
        return CompletableFuture.completedFuture(new OriginAnswer(200, "application/octet-stream", new byte[MID_BODY_BYTES]));
    }

    @Test
    @Order(0)
    void theConfiguredTransportCarriesTheForwards() {
        assertThat(appForwarder.transport()).isEqualTo(transport());
    }

    @Test
    @Order(1)
    void aRemoteOwnerServesAndCachesAForwardedKey() {
        // a key cached nowhere yet: its first answer must be the owner's MISS (seen once at load 18: HIT)
        String key = cluster.keyWhere(Set.of(), s -> is(s.owner(), b.member()), cluster::cachedByNoMember);
        Response first = given().get("/cache/" + key);
        first.then().statusCode(200)
                .header(CacheAnswers.SERVED_BY, b.address())
                .header(CacheAnswers.CACHE, "MISS")
                .contentType("text/plain; charset=ISO-8859-1");
        assertThat(first.asByteArray()).isEqualTo(DemoOrigin.contentFor(key));
        assertThat(b.cached(key)).isNotNull();
        given().get("/cache/" + key).then().statusCode(200)
                .header(CacheAnswers.SERVED_BY, b.address())
                .header(CacheAnswers.CACHE, "HIT");
        assertThat(b.originFetches).hasValue(1);
    }

    @Test
    @Order(2)
    void anOriginThatGivesNoAnswerThereIsA502() {
        String key = cluster.keyWhere(Set.of("cut"), s -> is(s.owner(), cutOff.member()));
        for (int i = 0; i < 3; i++) {
            given().header("X-Ketama-Features", "cut").get("/cache/" + key).then().statusCode(502)
                    .body("type", org.hamcrest.Matchers.equalTo("urn:ketama-router:problem:origin-unavailable"))
                    .body("detail", org.hamcrest.Matchers.containsString("refused the connection"));
        }
    }

    @Test
    @Order(2)
    void aRedirectThereComesBackWithItsLocationUncached() {
        String key = cluster.keyWhere(Set.of("moved"), s -> is(s.owner(), redirecting.member()));
        for (int i = 0; i < 2; i++) {
            Response answer = given().redirects().follow(false).header("X-Ketama-Features", "moved").get("/cache/" + key);
            answer.then().statusCode(307)
                    .header("Location", "/elsewhere/" + key)
                    .header(CacheAnswers.SERVED_BY, redirecting.address())
                    .header(CacheAnswers.CACHE, "MISS");
            assertThat(answer.asString()).isEqualTo("see /elsewhere/" + key);
        }
        assertThat(redirecting.cached(key)).isNull();
        assertThat(redirecting.originFetches).hasValue(2);
    }

    @Test
    @Order(2)
    void anOriginAnswerTooLargeThereIsA502SayingSo() {
        String key = cluster.keyWhere(Set.of("large"), s -> is(s.owner(), tooLarge.member()));
        given().header("X-Ketama-Features", "large").get("/cache/" + key).then().statusCode(502)
                .header(CacheAnswers.FAILOVER, org.hamcrest.Matchers.nullValue())
                .body("type", org.hamcrest.Matchers.equalTo("urn:ketama-router:problem:origin-answer-too-large"))
                .body("detail", org.hamcrest.Matchers.containsString("ketama.router.origin.max-body-bytes"))
                .body("detail", org.hamcrest.Matchers.containsString("this member takes at most 65536 bytes"));
        assertThat(tooLarge.originFetches).as("asked once: not again through other members").hasValue(1);
    }

    /**
     * Members may differ in their limit during a rollout: the owner takes a 256 KiB answer this member
     * would never take, and this member refuses it from the owner too, as a failed forward (retried
     * once, counted by the owner's breaker); the key's only other way is this member's own fetch, a
     * bypass. (That the transport carries the next forwards to that owner is each transport's own
     * test: {@code HttpForwardBodyLimitTest}, {@code BinaryForwardBodyLimitTest}.)
     */
    @Test
    @Order(2)
    void anAnswerPastThisMembersLimitFromAnOwnerWithALargerOneIsFailedOver() {
        String key = cluster.keyWhere(Set.of("larger"), s -> is(s.owner(), larger.member()), cluster::cachedByNoMember);
        largeKeys.add(key);
        Response answer = given().header("X-Ketama-Features", "larger").get("/cache/" + key);
        answer.then().statusCode(200)
                .header(CacheAnswers.OWNER, larger.address())
                .header(CacheAnswers.SERVED_BY, appAddress())
                .header(CacheAnswers.CACHE, "BYPASS")
                .header(CacheAnswers.FAILOVER, "1");
        assertThat(answer.asByteArray()).isEqualTo(DemoOrigin.contentFor(key));
        assertThat(larger.cached(key)).as("the owner took it, under its own limit").isNotNull();
        assertThat(larger.originFetches).as("the retry was answered from the owner's cache").hasValue(1);
    }

    /**
     * With this member's budget held but for {@link #ROOM} bytes (the test holds them, as other
     * bodies under way would), a reply of {@link #MID_BODY_BYTES} has no room: each of four requests
     * gets a 503 {@code overloaded} with {@code Retry-After} at once, without trying the other
     * candidate or the origin, without a retry, and without opening the owner's breaker (four
     * failures of four would). The owner did serve it, so once there is room it answers from its
     * cache, and the budget is back to empty once that reply is written.
     */
    @Test
    @Order(2)
    void aReplyThisMemberHasNoRoomForIsA503NeitherFailedOverNorHeldAgainstTheOwner() {
        io.ketama.router.serving.BodyBudget budget = bodyBudget;
        Cluster.await(() -> "no body held before the test; held " + budget.usedBytes(), () -> budget.usedBytes() == 0);
        String key = cluster.keyWhere(Set.of("mid"), s -> is(s.owner(), mid.member()), cluster::cachedByNoMember);
        TestMember other = midToo; // the next candidate: the only other member with the feature
        long held = budget.maxBytes() - ROOM;
        assertThat(budget.take(held)).isTrue();
        try {
            for (int i = 0; i < 4; i++) {
                given().header("X-Ketama-Features", "mid").get("/cache/" + key).then().statusCode(503)
                        .header("Retry-After", "1")
                        .header(CacheAnswers.FAILOVER, org.hamcrest.Matchers.nullValue())
                        .body("type", org.hamcrest.Matchers.equalTo("urn:ketama-router:problem:overloaded"))
                        .body("detail", org.hamcrest.Matchers.containsString("ketama.router.admission.max-buffered-bytes"))
                        .body("detail", org.hamcrest.Matchers.containsString("no room for"))
                        .body("detail", org.hamcrest.Matchers.containsString(Integer.toString(MID_BODY_BYTES)));
            }
            assertThat(budget.usedBytes()).as("the refused replies hold nothing").isEqualTo(held);
        } finally {
            budget.giveBack(held);
        }
        assertThat(mid.cached(key)).as("the owner served and cached it").isNotNull();
        assertThat(mid.originFetches).as("asked once, then answered from its cache").hasValue(1);
        assertThat(other.originFetches).as("the next candidate was never asked").hasValue(0);
        assertThat(other.cached(key)).isNull();
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).contains("ketama_router_forward_breaker_open{member=\"" + mid.address() + "\"} 0.0")
                .contains("ketama_router_forward_breaker_opened_total{member=\"" + mid.address() + "\"} 0.0")
                .contains("ketama_router_forward_retries_total{member=\"" + mid.address() + "\"} 0.0");

        Response served = given().header("X-Ketama-Features", "mid").get("/cache/" + key);
        served.then().statusCode(200)
                .header(CacheAnswers.SERVED_BY, mid.address())
                .header(CacheAnswers.CACHE, "HIT")
                .header(CacheAnswers.FAILOVER, org.hamcrest.Matchers.nullValue());
        assertThat(served.asByteArray()).hasSize(MID_BODY_BYTES);
        Cluster.await(() -> "the reply's bytes given back once written; held " + budget.usedBytes(), () -> budget.usedBytes() == 0);
    }

    @Test
    @Order(3)
    void aMemberThatStopsServingIsFailedOver() {
        b.stopServing();
        try {
            String key = cluster.keyWhere(Set.of("edge"), s -> is(s.owner(), b.member()), cluster::cachedByNoMember);
            given().header("X-Ketama-Features", "edge").get("/cache/" + key).then().statusCode(200)
                    .header(CacheAnswers.OWNER, b.address())
                    .header(CacheAnswers.SERVED_BY, c.address())
                    .header(CacheAnswers.FAILOVER, "1");
        } finally {
            b.resumeServing();
        }
    }

    @Test
    @Order(4)
    void aMemberThatCrashesIsFailedOverAtOnce() {
        String key = cluster.keyWhere(Set.of("edge"), s -> is(s.owner(), c.member()), cluster::cachedByNoMember);
        given().header("X-Ketama-Features", "edge").get("/cache/" + key).then().statusCode(200)
                .header(CacheAnswers.SERVED_BY, c.address());
        c.crash();
        given().header("X-Ketama-Features", "edge").get("/cache/" + key).then().statusCode(200)
                .header(CacheAnswers.OWNER, c.address())
                .header(CacheAnswers.SERVED_BY, org.hamcrest.Matchers.not(c.address()));
        cluster.awaitRingOfLiveMembers();
    }
}
