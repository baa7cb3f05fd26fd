package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.quarkus.Selection;
import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.OriginUnavailableException;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Members that fail: one that stops serving while still a member (its circuit breaker opens and
 * the next candidate serves), every candidate failing (the origin directly), an owner shut down
 * mid-test and one that crashes, whose keys the next member on the ring takes.
 */
@QuarkusTest
@WithTestResource(value = LoopbackCluster.class, scope = TestResourceScope.MATCHING_RESOURCES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FailoverTest extends ClusterTest {

    TestMember b;
    TestMember c;

    @Override
    String keyPrefix() {
        return "fo-";
    }

    @Override
    void addMembers() {
        b = cluster.add(Set.of("edge"));
        c = cluster.add(Set.of("edge"));
    }

    private boolean fresh(String key) {
        return cluster.cachedByNoMember(key) && localCache.peek(key) == null;
    }

    @Test
    @Order(1)
    void whenTheOwnerFailsTheNextCandidateServesAndCaches() {
        b.stopServing();
        // keys of b whose next member is c, so the stand-in is a forward too
        String key = cluster.keyWhere(Set.of(), s -> is(s.owner(), b.member()) && is(s.candidates().get(1), c.member()));

        Response first = given().get("/cache/" + key);
        first.then().statusCode(200)
                .header(CacheAnswers.OWNER, b.address())
                .header(CacheAnswers.SERVED_BY, c.address())
                .header(CacheAnswers.CACHE, "MISS")
                .header(CacheAnswers.FAILOVER, "1");
        assertThat(first.asByteArray()).isEqualTo(DemoOrigin.contentFor(key));
        assertThat(c.cached(key)).as("cached by the stand-in").isNotNull();

        given().get("/cache/" + key).then().statusCode(200)
                .header(CacheAnswers.SERVED_BY, c.address())
                .header(CacheAnswers.CACHE, "HIT");

        // b's breaker is open now (two failed forwards): b's other keys are served by the next member at once
        for (String other : cluster.keysWhere(Set.of(), s -> is(s.owner(), b.member()) && is(s.candidates().get(1), c.member()), 4)) {
            given().get("/cache/" + other).then().statusCode(200)
                    .header(CacheAnswers.OWNER, b.address())
                    .header(CacheAnswers.SERVED_BY, c.address());
        }
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).containsPattern("ketama_router_forward_breaker_opened_total\\{[^}]*member=\"" + b.address()
                + "\"[^}]*} 1\\.0");
    }

    @Test
    @Order(2)
    void theBreakerIsPerMember() {
        // b's breaker is open; c's is closed and c serves its own keys without failover
        String key = cluster.keyWhere(Set.of(), s -> is(s.owner(), c.member()));
        Response r = given().get("/cache/" + key);
        r.then().statusCode(200)
                .header(CacheAnswers.SERVED_BY, c.address())
                .header(CacheAnswers.CACHE, "MISS");
        assertThat(r.header(CacheAnswers.FAILOVER)).isNull();
    }

    @Test
    @Order(3)
    void whenEveryCandidateFailsThisMemberFetchesFromTheOrigin() {
        c.stopServing();
        try {
            // only b and c have "edge": both fail, the app member answers from the origin, caching nothing
            String key = "fo-edge-bypass";
            Selection s = cluster.select(key, Set.of("edge"));
            Response r = given().header("X-Ketama-Features", "edge").get("/cache/" + key);
            r.then().statusCode(200)
                    .header(CacheAnswers.OWNER, Members.address(s.owner()))
                    .header(CacheAnswers.SERVED_BY, Members.address(app()))
                    .header(CacheAnswers.CACHE, "BYPASS")
                    .header(CacheAnswers.FAILOVER, "2");
            assertThat(r.asByteArray()).isEqualTo(DemoOrigin.contentFor(key));
            assertThat(localCache.peek(key)).as("a non-owner caches nothing").isNull();
        } finally {
            c.resumeServing();
        }
    }

    @Test
    @Order(4)
    void anOwnerShutDownMidTestHandsItsKeysToTheNextMember() {
        // a key of c whose next member is this app's (b is not serving)
        String key = cluster.keyWhere(Set.of(), s -> is(s.owner(), c.member()) && is(s.candidates().get(1), app()), this::fresh);
        given().get("/cache/" + key).then().statusCode(200)
                .header(CacheAnswers.SERVED_BY, c.address())
                .header(CacheAnswers.CACHE, "MISS");

        c.close();
        // at once, whether or not the rings have caught up yet
        given().get("/cache/" + key).then().statusCode(200)
                .header(CacheAnswers.SERVED_BY, Members.address(app()));

        cluster.awaitRingOfLiveMembers();
        given().get("/cache/" + key).then().statusCode(200)
                .header(CacheAnswers.OWNER, Members.address(app()))
                .header(CacheAnswers.SERVED_BY, Members.address(app()))
                .header(CacheAnswers.CACHE, "HIT");
    }

    @Test
    @Order(5)
    void anOwnerThatCrashesIsServedForUntilTheClusterNoticesAndAfter() {
        TestMember d = cluster.add(Set.of());
        String key = cluster.keyWhere(Set.of(), s -> is(s.owner(), d.member()) && is(s.candidates().get(1), app()), this::fresh);
        given().get("/cache/" + key).then().statusCode(200).header(CacheAnswers.SERVED_BY, d.address());

        d.crash();
        // the rings still hold d until the cluster notices; the forward fails and the next member serves
        given().get("/cache/" + key).then().statusCode(200)
                .header(CacheAnswers.OWNER, d.address())
                .header(CacheAnswers.SERVED_BY, Members.address(app()))
                .header(CacheAnswers.CACHE, "MISS");

        cluster.awaitRingOfLiveMembers();
        given().get("/cache/" + key).then().statusCode(200)
                .header(CacheAnswers.OWNER, Members.address(app()))
                .header(CacheAnswers.CACHE, "HIT");
    }

    @Test
    @Order(6)
    void aForwardThatTakesTooLongTimesOutAndTheNextMemberServes() {
        CompletableFuture<Void> release = new CompletableFuture<>();
        DemoOrigin demo = new DemoOrigin(Duration.ZERO);
        // answers only when released, far beyond the 1 s forward timeout of the test profile
        TestMember slow = cluster.add(Set.of(), key -> release.thenCompose(v -> demo.fetch(key)));
        try {
            String key = cluster.keyWhere(Set.of(), s -> is(s.owner(), slow.member()) && is(s.candidates().get(1), app()),
                    this::fresh);
            double timeoutsBefore = timeouts();
            Response r = given().get("/cache/" + key);
            r.then().statusCode(200)
                    .header(CacheAnswers.OWNER, slow.address())
                    .header(CacheAnswers.SERVED_BY, Members.address(app()))
                    .header(CacheAnswers.FAILOVER, "1");
            assertThat(r.asByteArray()).isEqualTo(DemoOrigin.contentFor(key));
            // the attempt and its retry on the slow member, each given up after the forward timeout
            assertThat(timeouts() - timeoutsBefore).isBetween(1.0, 2.0);
            String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
            assertThat(metrics).containsPattern("ketama_router_forward_calls_total\\{[^}]*member=\"" + slow.address()
                    + "\"[^}]*result=\"failed\"[^}]*} [1-9]");
            given().get("/cache/" + key).then().statusCode(200).header(CacheAnswers.CACHE, "HIT");
        } finally {
            release.complete(null);
        }
    }

    /** {@code ketama_router_forward_timeouts_total} as scraped now. */
    private static double timeouts() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^ketama_router_forward_timeouts_total(?:\\{[^}]*})? ([0-9.E+-]+)$")
                .matcher(metrics);
        assertThat(m.find()).as("ketama_router_forward_timeouts_total is scraped").isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    @Order(7)
    void anOriginThatGivesNoAnswerIsA502AndNotTheMembersFault() {
        TestMember cutOff = cluster.add(Set.of(), key -> CompletableFuture.failedFuture(
                new OriginUnavailableException("origin http://origin.invalid refused the connection", null)));
        String key = cluster.keyWhere(Set.of(), s -> is(s.owner(), cutOff.member()), this::fresh);
        // more requests than the breaker's window: it must stay closed, or the next member would answer 200
        for (int i = 0; i < 4; i++) {
            given().get("/cache/" + key).then().statusCode(502)
                    .contentType(Problem.MEDIA_TYPE)
                    .body("type", org.hamcrest.Matchers.equalTo("urn:ketama-router:problem:origin-unavailable"))
                    .body("detail", org.hamcrest.Matchers.containsString("refused the connection"));
        }
        assertThat(cutOff.cached(key)).isNull();
    }
}
