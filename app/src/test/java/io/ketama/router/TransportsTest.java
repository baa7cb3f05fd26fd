package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.OriginAnswer;
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
 * answer too large there is a 502 saying so; a member that stops serving, and one that crashes, are failed over.
 * ({@link ForwardingTest} and {@link FailoverTest} cover the default transport in depth.)
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class TransportsTest extends ClusterTest {

    /** Runs the app with {@code ketama.router.forward.transport} set, on a fixed HTTP port (the http transport publishes it). */
    abstract static class Transport implements QuarkusTestProfile {
        abstract String transport();

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("ketama.router.forward.transport", transport(),
                    "quarkus.http.test-port", Integer.toString(freeHttpPort()));
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

    abstract io.ketama.router.forwarding.TransportKind transport();

    @Override
    void addMembers() {
        b = cluster.add(Set.of("edge"));
        c = cluster.add(Set.of("edge"));
        cutOff = cluster.add(Set.of("cut"), key -> CompletableFuture.failedFuture(
                new OriginUnavailableException("origin http://origin.invalid refused the connection", null)));
        redirecting = cluster.add(Set.of("moved"), key -> CompletableFuture.completedFuture(
                new OriginAnswer(307, "text/plain", ("see /elsewhere/" + key).getBytes(java.nio.charset.StandardCharsets.UTF_8),
                        "/elsewhere/" + key)));
        tooLarge = cluster.add(Set.of("large"), key -> CompletableFuture.failedFuture(new OriginAnswerTooLargeException(
                "origin http://origin.invalid answered with a body of 1048576 bytes (its Content-Length); this member takes at most 65536 bytes")));
    }

    @Test
    @Order(0)
    void theConfiguredTransportCarriesTheForwards() {
        assertThat(parts.transport()).isEqualTo(transport());
    }

    @Test
    @Order(1)
    void aRemoteOwnerServesAndCachesAForwardedKey() {
        String key = cluster.keyWhere(Set.of(), s -> is(s.owner(), b.member()));
        Response first = given().get("/cache/" + key);
        first.then().statusCode(200)
                .header(CacheResource.SERVED_BY, b.address())
                .header(CacheResource.CACHE, "MISS")
                .contentType("text/plain; charset=ISO-8859-1");
        assertThat(first.asByteArray()).isEqualTo(DemoOrigin.contentFor(key));
        assertThat(b.cached(key)).isNotNull();
        given().get("/cache/" + key).then().statusCode(200)
                .header(CacheResource.SERVED_BY, b.address())
                .header(CacheResource.CACHE, "HIT");
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
                    .header(CacheResource.SERVED_BY, redirecting.address())
                    .header(CacheResource.CACHE, "MISS");
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
                .header(CacheResource.FAILOVER, org.hamcrest.Matchers.nullValue())
                .body("type", org.hamcrest.Matchers.equalTo("urn:ketama-router:problem:origin-answer-too-large"))
                .body("detail", org.hamcrest.Matchers.containsString("ketama.router.origin.max-body-bytes"))
                .body("detail", org.hamcrest.Matchers.containsString("this member takes at most 65536 bytes"));
        assertThat(tooLarge.originFetches).as("asked once: not again through other members").hasValue(1);
    }

    @Test
    @Order(3)
    void aMemberThatStopsServingIsFailedOver() {
        b.stopServing();
        try {
            String key = cluster.keyWhere(Set.of("edge"), s -> is(s.owner(), b.member()), cluster::cachedByNoMember);
            given().header("X-Ketama-Features", "edge").get("/cache/" + key).then().statusCode(200)
                    .header(CacheResource.OWNER, b.address())
                    .header(CacheResource.SERVED_BY, c.address())
                    .header(CacheResource.FAILOVER, "1");
        } finally {
            b.resumeServing();
        }
    }

    @Test
    @Order(4)
    void aMemberThatCrashesIsFailedOverAtOnce() {
        String key = cluster.keyWhere(Set.of("edge"), s -> is(s.owner(), c.member()), cluster::cachedByNoMember);
        given().header("X-Ketama-Features", "edge").get("/cache/" + key).then().statusCode(200)
                .header(CacheResource.SERVED_BY, c.address());
        c.crash();
        given().header("X-Ketama-Features", "edge").get("/cache/" + key).then().statusCode(200)
                .header(CacheResource.OWNER, c.address())
                .header(CacheResource.SERVED_BY, org.hamcrest.Matchers.not(c.address()));
        cluster.awaitRingOfLiveMembers();
    }
}
