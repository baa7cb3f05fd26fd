package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A redirect from the origin passes through as the origin gave it: status, {@code Location} (but
 * one into the origin, which is sent as the service's own), content type and body, and like every answer but a plain 200 it is not cached (each request asks
 * the origin again), whether the key's owner is this member or another one reached over the binary
 * channel. The origin is a real HTTP server; redirects are not followed, by the service or the client.
 */
@QuarkusTest
@TestProfile(HttpOriginProfile.class)
class RedirectsTest extends HttpOriginClusterTest {

    @Override
    String keyPrefix() {
        return "redirect-";
    }

    @ParameterizedTest(name = "{0}, owner here")
    @ValueSource(ints = {301, 302, 303, 307, 308})
    void aRedirectPassesThroughWithItsLocationAndIsNotCachedByALocalOwner(int status) {
        String key = freshKeyOwnedBy(true);
        String location = "https://elsewhere.example/moved/" + key + "?from=" + status;
        byte[] body = ("<a href=\"" + location + "\">moved</a>").getBytes(StandardCharsets.UTF_8);
        origin.answer(key, new HttpTestOrigin.Answer(status, "text/html; charset=UTF-8", Map.of("Location", location), body, false));

        for (int i = 1; i <= 2; i++) {
            Response answer = given().redirects().follow(false).get("/cache/" + key);
            answer.then().statusCode(status)
                    .header("Location", location)
                    .header("Content-Type", "text/html; charset=UTF-8")
                    .header(CacheAnswers.SERVED_BY, appAddress())
                    .header(CacheAnswers.CACHE, "MISS");
            assertThat(answer.asByteArray()).isEqualTo(body);
            assertThat(origin.requests(key)).as("not cached: the origin is asked each time").isEqualTo(i);
        }
        assertThat(localCache.peek(key)).isNull();
    }

    @ParameterizedTest(name = "{0}, owner another member")
    @ValueSource(ints = {302, 307})
    void aRedirectPassesThroughWithItsLocationAndIsNotCachedByARemoteOwner(int status) throws Exception {
        String key = freshKeyOwnedBy(false);
        String location = "/elsewhere/" + key;
        byte[] body = "moved".getBytes(StandardCharsets.UTF_8);
        origin.answer(key, new HttpTestOrigin.Answer(status, "text/plain", Map.of("Location", location), body, false));

        for (int i = 1; i <= 2; i++) {
            Response answer = given().redirects().follow(false).get("/cache/" + key);
            answer.then().statusCode(status)
                    .header("Location", location)
                    .header("Content-Type", "text/plain")
                    .header(CacheAnswers.SERVED_BY, b.address())
                    .header(CacheAnswers.CACHE, "MISS");
            assertThat(answer.asByteArray()).isEqualTo(body);
            assertThat(origin.requests(key)).as("not cached: the origin is asked each time").isEqualTo(i);
        }
        assertThat(b.cached(key)).isNull();
        assertThat(localCache.peek(key)).isNull();

        RawHttp.Answer head = RawHttp.head(RestAssured.port, "/cache/" + key);
        assertThat(head.status()).isEqualTo(status);
        assertThat(head.header("Location")).isEqualTo(location);
        assertThat(head.header("Content-Length")).isEqualTo(Integer.toString(body.length));
    }

    /**
     * A {@code Location} into the origin ({@code <base-url>/k2}, absolute or as a path) is sent as
     * {@code /cache/k2}, as nginx's {@code proxy_redirect default} would, and a client that follows
     * it is served {@code k2} by the service, not by the origin directly: whether the redirecting
     * key's owner is this member or {@code b}, which sends the origin's {@code Location} as it is.
     */
    @ParameterizedTest(name = "owner here: {0}")
    @ValueSource(booleans = {true, false})
    void aLocationIntoTheOriginIsSentAsTheCachesOwnAndFollowingItStaysBehindTheCache(boolean local) throws Exception {
        String key = freshKeyOwnedBy(local);
        String target = "moved/" + key + "?w=200";
        String[] locations = {baseUrl + "/" + target, URI.create(baseUrl).getRawPath() + "/" + target};
        for (String location : locations) {
            origin.answer(key, new HttpTestOrigin.Answer(302, "text/plain", Map.of("Location", location), new byte[0], false));

            Response answer = given().redirects().follow(false).get("/cache/" + key);
            answer.then().statusCode(302)
                    .header("Location", "/cache/" + target)
                    .header(CacheAnswers.SERVED_BY, local ? appAddress() : b.address());
            RawHttp.Answer head = RawHttp.head(RestAssured.port, "/cache/" + key);
            assertThat(head.header("Location")).isEqualTo("/cache/" + target);
        }

        Response followed = given().redirects().follow(true).get("/cache/" + key);
        followed.then().statusCode(200).header(CacheAnswers.CACHE, org.hamcrest.Matchers.oneOf("MISS", "HIT"));
        // the test origin names its keys by path, without the query
        assertThat(followed.asByteArray()).isEqualTo(HttpTestOrigin.defaultBody("moved/" + key));
        assertThat(origin.requests("moved/" + key)).as("the redirect's target fetched once, through its owner").isEqualTo(1);
    }
}
