package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An origin answer larger than {@code ketama.router.origin.max-body-bytes} (64 KiB here) is not
 * taken: the request gets a 502 {@code origin-answer-too-large} problem, nothing is cached, every
 * request that waited for the same fetch gets the same answer (none is left hanging), and the key
 * works once the origin answers within the limit, whether this member owns the key or another
 * member serves it over the binary channel, which stays usable. A real HTTP origin; members on
 * 127.0.0.1.
 */
@QuarkusTest
@TestProfile(HttpOriginProfile.class)
class OriginBodyLimitTest extends HttpOriginClusterTest {

    private static final int LARGE = 1024 * 1024;

    @Override
    String keyPrefix() {
        return "body-limit-";
    }

    private static HttpTestOrigin.Answer large(boolean chunked, long delayMillis) {
        return new HttpTestOrigin.Answer(200, "application/octet-stream", Map.of(), new byte[LARGE], chunked, delayMillis);
    }

    private static void tooLarge(Response answer) {
        answer.then().statusCode(502)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:ketama-router:problem:origin-answer-too-large"))
                .body("status", equalTo(502))
                .body("detail", containsString("ketama.router.origin.max-body-bytes"))
                .body("detail", containsString(Integer.toString(HttpOriginProfile.MAX_BODY_BYTES)));
    }

    @ParameterizedTest(name = "chunked: {0}")
    @ValueSource(booleans = {false, true})
    void aLocalOwnerRefusesAnAnswerOverTheLimitCachesNothingAndServesTheKeyOnceItFits(boolean chunked) {
        String key = freshKeyOwnedBy(true);
        origin.answer(key, large(chunked, 0));

        tooLarge(given().get("/cache/" + key));
        assertThat(localCache.peek(key)).as("nothing cached").isNull();
        assertThat(localCache.fetchesUnderWay()).as("no fetch left under way").isZero();

        origin.reset(key);
        given().get("/cache/" + key).then().statusCode(200).header(CacheAnswers.CACHE, "MISS")
                .header(CacheAnswers.SERVED_BY, appAddress());
        Response hit = given().get("/cache/" + key);
        hit.then().statusCode(200).header(CacheAnswers.CACHE, "HIT");
        assertThat(hit.asByteArray()).isEqualTo(HttpTestOrigin.defaultBody(key));
    }

    @Test
    void everyRequestWaitingForTheSameFetchGetsTheProblemAndNoneIsLeftHanging() throws Exception {
        String key = freshKeyOwnedBy(true);
        origin.answer(key, large(true, 500));
        List<CompletableFuture<Response>> waiting = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            waiting.add(CompletableFuture.supplyAsync(() -> given().get("/cache/" + key)));
        }
        for (CompletableFuture<Response> answer : waiting) {
            tooLarge(answer.get(60, TimeUnit.SECONDS));
        }
        assertThat(localCache.fetchesUnderWay()).isZero();
        assertThat(localCache.peek(key)).isNull();
    }

    @ParameterizedTest(name = "chunked: {0}")
    @ValueSource(booleans = {false, true})
    void aRemoteOwnerRefusesItTooAndTheChannelToItStaysUsable(boolean chunked) {
        String key = freshKeyOwnedBy(false);
        origin.answer(key, large(chunked, 0));

        Response refused = given().get("/cache/" + key);
        tooLarge(refused);
        assertThat(refused.header(CacheAnswers.FAILOVER)).as("not failed over: the origin's answer, not the member").isNull();
        assertThat(b.cached(key)).isNull();
        assertThat(b.keyServer.cache().fetchesUnderWay()).isZero();
        assertThat(origin.requests(key)).as("asked once, by the owner: not again through other members").isEqualTo(1);

        // the channel to b carries the next forwards, each event loop's connection included
        for (int i = 0; i < 16; i++) {
            String next = freshKeyOwnedBy(false);
            given().get("/cache/" + next).then().statusCode(200)
                    .header(CacheAnswers.SERVED_BY, b.address())
                    .header(CacheAnswers.CACHE, "MISS")
                    .header(CacheAnswers.FAILOVER, org.hamcrest.Matchers.nullValue());
        }
        origin.reset(key);
        Response served = given().get("/cache/" + key);
        served.then().statusCode(200).header(CacheAnswers.SERVED_BY, b.address()).header(CacheAnswers.CACHE, "MISS");
        assertThat(served.asByteArray()).isEqualTo(HttpTestOrigin.defaultBody(key));
        assertThat(given().get("/q/metrics").then().statusCode(200).extract().asString())
                .contains("ketama_router_forward_breaker_open{member=\"" + b.address() + "\"} 0.0")
                .contains("ketama_router_forward_retries_total{member=\"" + b.address() + "\"} 0.0");
    }
}
