package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.router.serving.HttpOrigin;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The service as a shared HTTP cache over a three-member cluster (the app, the entry of every request
 * here, and two plain members, {@code b} and {@code c}, that fetch from the same real origin), at the
 * root mount ({@code /<key>} is {@code <base-url>/<key>} at the origin): what is stored and for how
 * long is what the origin's answer says (RFC 9111), fields pass end to end both ways, on a key the app
 * owns and on one another member owns (over the member channel). Each test names the RFC section it
 * holds the service to.
 */
@QuarkusTest
@TestProfile(HttpOriginProfile.class)
class HttpCachingTest extends HttpOriginClusterTest {

    private final HttpClient raw = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    TestMember c;

    @Override
    String keyPrefix() {
        return "http-caching-";
    }

    @Override
    void addMembers() throws Exception {
        super.addMembers();
        HttpOrigin membersOrigin = new HttpOrigin(origin.vertx(), baseUrl, Duration.ofSeconds(10), 4, HttpOriginProfile.MAX_BODY_BYTES);
        closeAfterMembers(membersOrigin::close);
        c = cluster.add(Set.of(), membersOrigin);
    }

    /** A name the origin was never asked for whose root key ({@code /<name>}) {@code b} owns, or this app where {@code local}. */
    private String nameOwnedBy(boolean local) {
        for (int i = 0; i < 100_000; i++) {
            String name = keyPrefix() + i;
            if (origin.requests(name) == 0 && is(cluster.select("/" + name, Set.of()).owner(), local ? app() : b.member())) {
                return name;
            }
        }
        throw new AssertionError("no key found");
    }

    private void answer(String name, int status, String body, String... fields) {
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        for (int i = 0; i < fields.length; i += 2) {
            headers.put(fields[i], fields[i + 1]);
        }
        origin.answer(name, new HttpTestOrigin.Answer(status, "text/plain; charset=UTF-8", headers,
                body.getBytes(StandardCharsets.UTF_8), false));
    }

    @Test
    void fieldsPassEndToEndBothWaysOverTheMemberChannel_rfc9110_7_6() throws Exception {
        String name = nameOwnedBy(false);
        answer(name, 200, "hello", "Cache-Control", "max-age=60", "ETag", "\"v1\"", "Last-Modified", "Sat, 05 Dec 2026 10:00:00 GMT",
                "Content-Language", "en", "X-Origin-Field", "kept \u00fc", "Expires", "Sun, 06 Dec 2026 10:00:00 GMT");
        // sent with the JDK's client, which adds nothing of its own to these fields
        HttpResponse<String> first = raw.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port + "/" + name))
                .header("Accept-Encoding", "br").header("User-Agent", "test-agent/1").header("X-Client-Field", "a b")
                .header("X-Ketama-Debug", "1").header("X-Forwarded-Host", "evil.example").build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.ISO_8859_1));
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.body()).isEqualTo("hello");
        Map<String, String> expected = Map.of("ETag", "\"v1\"", "Last-Modified", "Sat, 05 Dec 2026 10:00:00 GMT",
                "Cache-Control", "max-age=60", "Content-Language", "en", "X-Origin-Field", "kept \u00fc",
                "Expires", "Sun, 06 Dec 2026 10:00:00 GMT", CacheAnswers.CACHE, "MISS", CacheAnswers.SERVED_BY, b.address());
        expected.forEach((field, value) -> assertThat(first.headers().firstValue(field)).as(field).hasValue(value));
        assertThat(first.headers().firstValue("Date")).isPresent();
        assertThat(first.headers().firstValue("Via").orElse("")).contains("ketama-router");
        HttpTestOrigin.Seen seen = origin.seen(name).get(0);
        assertThat(seen.method()).isEqualTo("GET");
        assertThat(seen.field("Accept-Encoding")).isEqualTo("br");
        assertThat(seen.field("User-Agent")).isEqualTo("test-agent/1");
        assertThat(seen.field("X-Client-Field")).isEqualTo("a b");
        assertThat(seen.field("Via")).as("a gateway names itself to the origin (RFC 9110 §7.6.3)").contains("ketama-router");
        assertThat(seen.field("X-Ketama-Debug")).as("this service's own fields stay here").isNull();
        assertThat(seen.field("X-Forwarded-Host")).as("an unkeyed input stripped by default").isNull();

        Response hit = given().get("/" + name);
        hit.then().statusCode(200).header(CacheAnswers.CACHE, "HIT").header("ETag", "\"v1\"")
                .header("Date", first.headers().firstValue("Date").orElseThrow()).header("X-Origin-Field", "kept \u00fc");
        assertThat(Integer.parseInt(hit.header("Age"))).as("a stored answer says its age (RFC 9111 §5.1)").isGreaterThanOrEqualTo(0);
        assertThat(origin.requests(name)).isEqualTo(1);
    }

    @Test
    void anAnswerMarkedPrivateForOneClientIsNeverServedToAnother_rfc9111_5_2_2_7() {
        for (boolean local : new boolean[] {true, false}) {
            String name = nameOwnedBy(local);
            answer(name, 200, "alice's page", "Cache-Control", "private, max-age=600");
            given().header("Cookie", "session=alice").get("/" + name).then().statusCode(200).header(CacheAnswers.CACHE, "MISS");
            for (int i = 0; i < 20; i++) { // asked often enough to be hot here: still never kept near
                given().header("Cookie", "session=bob").get("/" + name).then().statusCode(200)
                        .header(CacheAnswers.CACHE, "MISS");
            }
            assertThat(origin.requests(name)).as("every request of a private answer reaches the origin").isEqualTo(21);
            assertThat(origin.seen(name).get(20).field("Cookie")).isEqualTo("session=bob");
        }
    }

    @Test
    void noStoreAndSetCookieAnswersAreNotStored_rfc9111_5_2_2_5() {
        String noStore = nameOwnedBy(false);
        answer(noStore, 200, "x", "Cache-Control", "no-store, max-age=600");
        String cookie = nameOwnedBy(true);
        answer(cookie, 200, "y", "Cache-Control", "max-age=600", "Set-Cookie", "session=alice");
        for (int i = 0; i < 3; i++) {
            given().get("/" + noStore).then().statusCode(200).header(CacheAnswers.CACHE, "MISS");
            given().get("/" + cookie).then().statusCode(200).header(CacheAnswers.CACHE, "MISS").header("Set-Cookie", "session=alice");
        }
        assertThat(origin.requests(noStore)).isEqualTo(3);
        assertThat(origin.requests(cookie)).as("Set-Cookie is not stored by default (nginx, Varnish)").isEqualTo(3);
    }

    @Test
    void aRequestWithCredentialsIsAnsweredFromNoOneElsesStoredCopyUnlessTheOriginSharesIt_rfc9111_3_5() {
        String name = nameOwnedBy(false);
        answer(name, 200, "mine", "Cache-Control", "max-age=600");
        given().header("Authorization", "Bearer alice").get("/" + name).then().statusCode(200).header(CacheAnswers.CACHE, "MISS");
        given().get("/" + name).then().statusCode(200).header(CacheAnswers.CACHE, "MISS");
        assertThat(origin.seen(name).get(0).field("Authorization")).isEqualTo("Bearer alice");
        String shared = nameOwnedBy(false);
        answer(shared, 200, "everyone's", "Cache-Control", "public, max-age=600");
        given().header("Authorization", "Bearer alice").get("/" + shared).then().statusCode(200).header(CacheAnswers.CACHE, "MISS");
        given().get("/" + shared).then().statusCode(200).header(CacheAnswers.CACHE, "HIT");
    }

    @Test
    void maxAgeHoldsOnTheOwnerAndOnTheEntrysNearCopy_rfc9111_4_2() throws Exception {
        String name = nameOwnedBy(false);
        answer(name, 200, "version 1", "Cache-Control", "max-age=2");
        for (int i = 0; i < 40; i++) { // hot here: kept near
            given().get("/" + name).then().statusCode(200).body(org.hamcrest.Matchers.equalTo("version 1"));
        }
        assertThat(given().get("/" + name).header(CacheAnswers.CACHE)).isIn("HIT", "NEAR");
        answer(name, 200, "version 2", "Cache-Control", "max-age=2");
        Thread.sleep(2_600);
        given().get("/" + name).then().statusCode(200).body(org.hamcrest.Matchers.equalTo("version 2"))
                .header(CacheAnswers.CACHE, "MISS");
    }

    @Test
    void aStoredAnswerAnswersAConditionalRequestWith304AndAStaleOneIsRevalidated_rfc9111_4_3() throws Exception {
        String name = nameOwnedBy(false);
        answer(name, 200, "tagged", "Cache-Control", "max-age=1", "ETag", "\"v1\"");
        given().get("/" + name).then().statusCode(200).header(CacheAnswers.CACHE, "MISS");
        Response notModified = given().header("If-None-Match", "\"v1\"").get("/" + name);
        notModified.then().statusCode(304).header("ETag", "\"v1\"").header(CacheAnswers.CACHE, "HIT");
        assertThat(notModified.asByteArray()).isEmpty();
        given().header("If-None-Match", "\"other\"").get("/" + name).then().statusCode(200).body(org.hamcrest.Matchers.equalTo("tagged"));
        assertThat(origin.requests(name)).isEqualTo(1);

        Thread.sleep(1_500); // stale: the owner asks the origin with the stored validator
        given().get("/" + name).then().statusCode(200).body(org.hamcrest.Matchers.equalTo("tagged"))
                .header(CacheAnswers.CACHE, "REVALIDATED");
        assertThat(origin.requests(name)).isEqualTo(2);
        assertThat(origin.seen(name).get(1).field("If-None-Match")).isEqualTo("\"v1\"");
    }

    @Test
    void aGzipAnswerReachesTheClientWithItsEncodingAndDecodes() throws Exception {
        String name = nameOwnedBy(false);
        byte[] plain = "a body that was compressed by the origin ".repeat(20).getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(plain);
        }
        origin.answer(name, new HttpTestOrigin.Answer(200, "text/plain", Map.of("Content-Encoding", "gzip", "Cache-Control", "max-age=60",
                "Vary", "Accept-Encoding"), gz.toByteArray(), false));
        for (String expected : new String[] {"MISS", "HIT"}) {
            HttpResponse<byte[]> r = raw.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port + "/" + name))
                    .header("Accept-Encoding", "gzip").build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue(CacheAnswers.CACHE)).hasValue(expected);
            assertThat(r.headers().firstValue("Content-Encoding")).hasValue("gzip");
            assertThat(r.body()).isEqualTo(gz.toByteArray());
            assertThat(gunzip(r.body())).isEqualTo(plain);
        }
    }

    private static byte[] gunzip(byte[] bytes) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(bytes))) {
            return in.readAllBytes();
        }
    }

    @Test
    void aPostReachesTheOriginWithItsBodyAndInvalidatesTheStoredAnswer_rfc9111_4_4() {
        String name = nameOwnedBy(false);
        answer(name, 200, "resource", "Cache-Control", "max-age=600");
        given().get("/" + name).then().statusCode(200).header(CacheAnswers.CACHE, "MISS");
        given().get("/" + name).then().statusCode(200).header(CacheAnswers.CACHE, "HIT");
        given().header("Content-Type", "application/x-www-form-urlencoded").body("a=1&b=2").post("/" + name).then().statusCode(200)
                .header(CacheAnswers.CACHE, "PASS");
        HttpTestOrigin.Seen post = origin.seen(name).get(1);
        assertThat(post.method()).isEqualTo("POST");
        assertThat(post.body()).isEqualTo("a=1&b=2");
        assertThat(post.field("Content-Type")).startsWith("application/x-www-form-urlencoded"); // RestAssured adds a charset
        given().get("/" + name).then().statusCode(200).header(CacheAnswers.CACHE, "MISS");
        assertThat(origin.requests(name)).isEqualTo(3);
    }

    @Test
    void variantsByVaryAreKeptApartAndVaryStarNeverMatches_rfc9111_4_1() {
        String name = nameOwnedBy(true);
        answer(name, 200, "negotiated", "Cache-Control", "max-age=600", "Vary", "Accept-Language");
        given().header("Accept-Language", "en").get("/" + name).then().header(CacheAnswers.CACHE, "MISS");
        given().header("Accept-Language", "en").get("/" + name).then().header(CacheAnswers.CACHE, "HIT");
        given().header("Accept-Language", "de").get("/" + name).then().header(CacheAnswers.CACHE, "MISS");
        given().header("Accept-Language", "de").get("/" + name).then().header(CacheAnswers.CACHE, "HIT");
        given().get("/" + name).then().header(CacheAnswers.CACHE, "MISS");
        String star = nameOwnedBy(true);
        answer(star, 200, "never twice", "Cache-Control", "max-age=600", "Vary", "*");
        given().get("/" + star).then().header(CacheAnswers.CACHE, "MISS");
        given().get("/" + star).then().header(CacheAnswers.CACHE, "MISS");
    }

    @Test
    void aRangeIsServedFromTheStoredWholeAnswer_rfc9110_14() {
        String name = nameOwnedBy(false);
        answer(name, 200, "0123456789", "Cache-Control", "max-age=600");
        given().header("Range", "bytes=2-4").get("/" + name).then().statusCode(206).header("Content-Range", "bytes 2-4/10")
                .body(org.hamcrest.Matchers.equalTo("234"));
        assertThat(origin.seen(name).get(0).field("Range")).as("the cache fetches the whole answer").isNull();
        given().header("Range", "bytes=-3").get("/" + name).then().statusCode(206).body(org.hamcrest.Matchers.equalTo("789"))
                .header(CacheAnswers.CACHE, "HIT");
        given().header("Range", "bytes=20-").get("/" + name).then().statusCode(416).header("Content-Range", "bytes */10");
    }

    @Test
    void statusesOtherThan200AreStoredWhenTheirAnswerSaysSo_rfc9111_3() {
        String name = nameOwnedBy(false);
        answer(name, 404, "gone", "Cache-Control", "max-age=600");
        given().get("/" + name).then().statusCode(404).header(CacheAnswers.CACHE, "MISS");
        given().get("/" + name).then().statusCode(404).header(CacheAnswers.CACHE, "HIT");
        String moved = nameOwnedBy(true);
        answer(moved, 301, "moved", "Location", "/elsewhere");
        given().redirects().follow(false).get("/" + moved).then().statusCode(301).header("Location", "/elsewhere");
        given().redirects().follow(false).get("/" + moved).then().statusCode(301).header(CacheAnswers.CACHE, "MISS");
    }

    @Test
    void onlyIfCachedIsAnswered504WithoutTheOrigin_rfc9111_5_2_1_7() {
        String name = nameOwnedBy(false);
        given().header("Cache-Control", "only-if-cached").get("/" + name).then().statusCode(504)
                .contentType(Problem.MEDIA_TYPE);
        assertThat(origin.requests(name)).isZero();
    }

    @Test
    void aClientsNoCacheMakesTheCacheAskTheOrigin_rfc9111_5_2_1_4() {
        String name = nameOwnedBy(true);
        answer(name, 200, "v", "Cache-Control", "max-age=600", "ETag", "\"t\"");
        given().get("/" + name).then().header(CacheAnswers.CACHE, "MISS");
        given().header("Cache-Control", "no-cache").get("/" + name).then().statusCode(200).header(CacheAnswers.CACHE, "REVALIDATED");
        assertThat(origin.seen(name).get(1).field("If-None-Match")).isEqualTo("\"t\"");
    }

    @Test
    void traceAndConnectAreNotPassed() {
        given().request("TRACE", "/" + nameOwnedBy(true)).then().statusCode(405).contentType(Problem.MEDIA_TYPE);
    }
}
