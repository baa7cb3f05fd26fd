package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.ValidatableResponse;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every kind of bad input gets an RFC 7807 answer naming what was wrong; odd but valid keys are served byte for byte. */
@QuarkusTest
@WithTestResource(value = LoopbackCluster.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ProblemAnswersTest {

    private static ValidatableResponse problem(ValidatableResponse r, int status, String kind) {
        return r.statusCode(status)
                .contentType(Problem.MEDIA_TYPE)
                .body("type", equalTo("urn:ketama-router:problem:" + kind))
                .body("status", equalTo(status))
                .body("title", org.hamcrest.Matchers.not(org.hamcrest.Matchers.emptyOrNullString()))
                .body("detail", org.hamcrest.Matchers.not(org.hamcrest.Matchers.emptyOrNullString()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/cache/", "/cache", "/route/", "/route", "/cache?x=1"})
    void anEmptyKeyIsRefused(String path) {
        problem(given().urlEncodingEnabled(false).get(path).then(), 400, "empty-key")
                .body("detail", containsString("key is"));
    }

    @Test
    void aKeyOver8KiBIsRefusedAndOneOfExactly8KiBIsServed() {
        String exact = "k".repeat(RawKey.MAX_BYTES);
        given().get("/cache/" + exact).then().statusCode(200);
        problem(given().get("/cache/" + exact + "k").then(), 414, "key-too-long")
                .body("detail", containsString("8193 bytes"))
                .body("detail", containsString("8192"));
        problem(given().get("/route/" + exact + "k").then(), 414, "key-too-long");
    }

    @Test
    void aRequestLineBeyondWhatTheServerReadsIsRefusedWithoutA500() throws Exception {
        RawHttp.Answer a = RawHttp.get(RestAssured.port, "/cache/" + "k".repeat(70_000));
        assertThat(a.status()).isEqualTo(414);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a,,b", ",a", "a,", "bad tag", "semi;colon", "ü", "-dash-first", " , "})
    void aMalformedFeaturesHeaderIsRefused(String header) {
        problem(given().header("X-Ketama-Features", header).get("/cache/some-key").then(), 400, "malformed-features")
                .body("detail", startsWith("X-Ketama-Features"))
                .body("detail", containsString("allowed"));
    }

    @Test
    void aPassedOverHeaderNamingTooManyMembersOrTooLongIsRefusedAndAUsableOneServed() {
        String nine = String.join(",", java.util.Collections.nCopies(PassedOver.MAX_MEMBERS + 1, "127.0.0.1:5701"));
        problem(given().header(PassedOver.NAME, nine).get("/cache/k").then(), 400, "bad-request")
                .body("detail", containsString("9 members")).body("detail", containsString("at most 8"));
        problem(given().header(PassedOver.NAME, "1".repeat(PassedOver.MAX_LENGTH + 1)).get("/cache/k").then(), 400, "bad-request")
                .body("detail", containsString("1025 characters"));
        given().header(PassedOver.NAME, "127.0.0.1:1,127.0.0.1:2").get("/cache/k").then().statusCode(200); // no candidate of the key: ignored
    }

    @Test
    void tooManyOrTooLongFeaturesAreRefused() {
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < FeaturesHeader.MAX_FEATURES + 1; i++) {
            many.append(i == 0 ? "" : ",").append("f").append(i);
        }
        problem(given().header("X-Ketama-Features", many.toString()).get("/cache/k").then(), 400, "malformed-features");
        problem(given().header("X-Ketama-Features", "f".repeat(65)).get("/cache/k").then(), 400, "malformed-features");
    }

    @Test
    void anUnknownFeatureIsRefusedNamingTheKnownOnes() {
        problem(given().header("X-Ketama-Features", "gpu").get("/cache/some-key").then(), 400, "unknown-feature")
                .body("unknown", equalTo(List.of("gpu")))
                .body("allowed", equalTo(List.of()));
        problem(given().header("X-Ketama-Features", "gpu").get("/route/some-key").then(), 400, "unknown-feature");
    }

    @Test
    void aBlankFeaturesHeaderRequiresNothing() {
        given().header("X-Ketama-Features", "").get("/cache/blank-features").then().statusCode(200);
    }

    /** Keys that look odd are still keys: served, and routed on exactly the bytes sent. */
    @ParameterizedTest
    @ValueSource(strings = {"%2F%2e%2e%2Fetc", "a/../b", "a/./b", "a//b", "//", "a?x=%ff&y", "a%00b", "~!$&'()*+,;=:@",
            "a?b?c", "a#frag", "%E2%82%AC"})
    void oddKeysAreServedByteForByte(String key) throws Exception {
        RawHttp.Answer cache = RawHttp.get(RestAssured.port, "/cache/" + key);
        assertThat(cache.status()).as(key + ": " + cache.headers() + " " + cache.text()).isEqualTo(200);
        assertThat(cache.body()).as(key).isEqualTo(io.ketama.router.serving.DemoOrigin.contentFor(key));
        RawHttp.Answer route = RawHttp.get(RestAssured.port, "/route/" + key);
        assertThat(route.status()).as(key).isEqualTo(200);
        assertThat(route.text()).as(key).contains("\"keyBytes\":" + key.length());
    }

    @Test
    void nonUtf8BytesInTheRequestLineAreKeyBytes() throws Exception {
        ByteArrayOutputStream target = new ByteArrayOutputStream();
        target.writeBytes("/cache/raw-".getBytes(StandardCharsets.US_ASCII));
        target.write(0xFF);
        target.write(0xFE);
        target.write(0xC3);
        RawHttp.Answer a = RawHttp.get(RestAssured.port, target.toByteArray());
        // served, on exactly the bytes sent (app/README.md: non-UTF-8 bytes are keys like any other);
        // a 400 here is the request line read as text, the failure this test is for
        assertThat(a.status()).as("%s %s", a.headers(), a.text()).isEqualTo(200);
        String key = new String(new byte[] {'r', 'a', 'w', '-', (byte) 0xFF, (byte) 0xFE, (byte) 0xC3}, StandardCharsets.ISO_8859_1);
        assertThat(a.body()).isEqualTo(io.ketama.router.serving.DemoOrigin.contentFor(key));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/cache/../x", "/%63ache/x", "/cache/%2e%2e/x", "/cache/\u0001x", "/cache/a\u007fb"})
    void targetsThatAreNotPlainlyUnderCacheNeverGiveA500(String target) throws Exception {
        RawHttp.Answer a = RawHttp.get(RestAssured.port, target);
        assertThat(a.status()).as(target + ": " + a.text()).isBetween(200, 499);
    }

    /** Not URIs at all (RFC 3986: '%' starts a two-hex-digit escape): the HTTP layer refuses them before routing. */
    @ParameterizedTest
    @ValueSource(strings = {"/cache/%zz", "/cache/%", "/cache/a%2"})
    void invalidPercentEscapesAreRefusedBeforeRouting(String target) throws Exception {
        assertThat(RawHttp.get(RestAssured.port, target).status()).as(target).isEqualTo(400);
    }

    /**
     * app/README.md, Problems: 404 {@code not-found} and 405 {@code method-not-allowed} are problem
     * documents like the rest; a 405 names the methods the path takes in {@code Allow}, as RFC 9110
     * (15.5.6) requires of every 405.
     */
    @Test
    void unknownPathsAndMethodsOfTheServicesOwnAreProblemsTheRestIsTheOrigins() {
        Map<String, String> allowed = Map.of("/route/k", "GET, HEAD", "/ring", "GET, HEAD");
        for (String method : List.of("POST", "PUT", "DELETE", "PATCH")) {
            for (String path : List.of("/route/k", "/ring")) {
                ValidatableResponse answer = problem(given().request(method, path).then(), 405, "method-not-allowed")
                        .body("instance", equalTo(path));
                assertThat(methods(answer.extract().header("Allow"))).as("Allow of a %s on %s", method, path)
                        .isEqualTo(methods(allowed.get(path)));
            }
            // a proxied path: the method goes to the origin, whose own answer comes back (the demo origin takes writes)
            given().request(method, "/cache/k").then().statusCode(200).header(CacheAnswers.CACHE, "PASS")
                    .body(equalTo("the demo origin took a " + method + " of 0 bytes to /k\n"));
        }
        given().request("OPTIONS", "/cache/k").then().statusCode(405).header(CacheAnswers.CACHE, "PASS")
                .header("Allow", "GET, HEAD, POST, PUT, PATCH, DELETE");
        for (String path : List.of("/q/no-such-path", "/_ketama/no-such-path")) {
            problem(given().get(path).then(), 404, "not-found")
                    .body("instance", equalTo(path));
        }
        for (String path : List.of("/no-such-path", "/cachex/k")) { // not the service's: proxied at the root
            given().get(path).then().statusCode(200).header(CacheAnswers.CACHE, org.hamcrest.Matchers.oneOf("MISS", "HIT"));
        }
    }

    /** The methods an {@code Allow} header lists, in any order; empty when there is none. */
    private static Set<String> methods(String allow) {
        if (allow == null || allow.isBlank()) {
            return Set.of();
        }
        return Arrays.stream(allow.split(",")).map(String::trim).map(m -> m.toUpperCase(Locale.ROOT)).collect(Collectors.toSet());
    }
}
