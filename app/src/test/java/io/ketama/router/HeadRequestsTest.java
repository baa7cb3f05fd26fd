package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.router.serving.DemoOrigin;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code HEAD /cache/<key>} answers with the status and headers the {@code GET} of the same key
 * answers with ({@code Content-Length} of the body the {@code GET} sends included) and sends no
 * body: for a key its owner serves here and for one another member serves over the binary channel.
 * Read from the raw socket, so a body sent where none belongs would show.
 */
@QuarkusTest
@WithTestResource(value = LoopbackCluster.class, scope = TestResourceScope.MATCHING_RESOURCES)
class HeadRequestsTest extends ClusterTest {

    /** The headers a {@code HEAD} must carry as its {@code GET} does. */
    private static final List<String> SAME = List.of("Content-Length", "Content-Type", CacheAnswers.OWNER,
            CacheAnswers.SERVED_BY, CacheAnswers.RING);

    TestMember b;

    @Override
    String keyPrefix() {
        return "head-";
    }

    @Override
    void addMembers() {
        b = cluster.add(Set.of());
    }

    @Test
    void aLocalHitAnswersAHeadWithTheHeadersOfItsGetAndNoBody() throws Exception {
        String key = cluster.keyWhere(Set.of(), s -> is(s.owner(), app()));
        given().get("/cache/" + key).then().statusCode(200).header(CacheAnswers.CACHE, "MISS");
        Response get = given().get("/cache/" + key);
        get.then().statusCode(200).header(CacheAnswers.CACHE, "HIT");

        RawHttp.Answer head = RawHttp.head(RestAssured.port, "/cache/" + key);
        assertSameHeadersNoBody(head, get, DemoOrigin.contentFor(key).length);
        assertThat(head.header(CacheAnswers.CACHE)).isEqualTo("HIT");
    }

    @Test
    void aForwardedKeyAnswersAHeadWithTheHeadersOfItsGetAndNoBody() throws Exception {
        String key = cluster.keyWhere(Set.of(), s -> is(s.owner(), b.member()));
        RawHttp.Answer miss = RawHttp.head(RestAssured.port, "/cache/" + key);
        assertThat(miss.status()).isEqualTo(200);
        assertThat(miss.header(CacheAnswers.CACHE)).as("the HEAD fetched the key at its owner").isEqualTo("MISS");
        assertThat(miss.header("Content-Length")).isEqualTo(Integer.toString(DemoOrigin.contentFor(key).length));
        assertThat(miss.body()).isEmpty();
        assertThat(b.cached(key)).as("cached by its owner, as a GET would have").isNotNull();

        Response get = given().get("/cache/" + key);
        get.then().statusCode(200).header(CacheAnswers.CACHE, "HIT").header(CacheAnswers.SERVED_BY, b.address());
        RawHttp.Answer head = RawHttp.head(RestAssured.port, "/cache/" + key);
        assertSameHeadersNoBody(head, get, DemoOrigin.contentFor(key).length);
        assertThat(head.header(CacheAnswers.CACHE)).isEqualTo("HIT");
    }

    @Test
    void aProblemAnswersAHeadWithTheHeadersOfItsGetAndNoBody() throws Exception {
        Response get = given().header(FeaturesHeader.NAME, "a,,b").get("/cache/head-problem");
        get.then().statusCode(400);
        RawHttp.Answer head = RawHttp.head(RestAssured.port, "/cache/head-problem", FeaturesHeader.NAME + ": a,,b");
        assertThat(head.status()).isEqualTo(400);
        assertThat(head.header("Content-Type")).isEqualTo(get.header("Content-Type"));
        assertThat(head.header("Content-Length")).isEqualTo(Integer.toString(get.asByteArray().length));
        assertThat(head.body()).isEmpty();
    }

    /**
     * Every target under {@code /cache} that ends in a problem before any work, whichever part of
     * the service answers its {@code GET} (the route, {@code /cache} without a slash included, or
     * Quarkus REST's 404 for a target whose dot segments lead out of {@code /cache/}): the
     * {@code HEAD} gets the same status, type and {@code Content-Length}, and no body.
     */
    @ParameterizedTest
    @ValueSource(strings = {"/cache", "/cache?x=1", "/cache/", "/%63ache/x", "/cache/../x", "/cache/%2e%2e/x"})
    void aTargetWithoutAUsableKeyAnswersAHeadAsItsGetWithNoBody(String target) throws Exception {
        RawHttp.Answer get = RawHttp.get(RestAssured.port, target);
        assertThat(get.status()).as(target + ": " + get.text()).isBetween(400, 499);
        RawHttp.Answer head = RawHttp.head(RestAssured.port, target);
        String both = target + ": GET " + get.headers() + " " + get.text() + "; HEAD " + head.headers();
        assertThat(head.status()).as(both).isEqualTo(get.status());
        assertThat(head.header("Content-Type")).as(both).isEqualTo(get.header("Content-Type"));
        assertThat(head.header("Content-Length")).as(both + ": the length of the GET's body")
                .isEqualTo(Integer.toString(get.body().length));
        assertThat(head.body()).as(target + ": a HEAD's answer has no body").isEmpty();
    }

    @Test
    void aKeyTooLongAnswersAHeadAsItsGetWithNoBody() throws Exception {
        String target = "/cache/" + "k".repeat(RawKey.MAX_BYTES + 1);
        RawHttp.Answer get = RawHttp.get(RestAssured.port, target);
        assertThat(get.status()).isEqualTo(414);
        RawHttp.Answer head = RawHttp.head(RestAssured.port, target);
        assertThat(head.status()).isEqualTo(414);
        assertThat(head.header("Content-Type")).isEqualTo(get.header("Content-Type"));
        assertThat(head.header("Content-Length")).isEqualTo(Integer.toString(get.body().length));
        assertThat(head.body()).isEmpty();
    }

    private static void assertSameHeadersNoBody(RawHttp.Answer head, Response get, int bodyLength) {
        assertThat(head.status()).isEqualTo(get.statusCode());
        assertThat(get.header("Content-Length")).isEqualTo(Integer.toString(bodyLength));
        for (String name : SAME) {
            assertThat(head.header(name)).as(name).isEqualTo(get.header(name));
        }
        assertThat(head.body()).as("a HEAD's answer has no body").isEmpty();
    }
}
