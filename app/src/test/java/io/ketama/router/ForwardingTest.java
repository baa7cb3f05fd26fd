package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.hasSize;

import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.Members;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.Set;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Hit, miss and forward across three real members: the app's own and two plain members in this
 * JVM running the same serving code. Each key is fetched from the origin once, by its owner, and
 * cached only there.
 */
@QuarkusTest
@WithTestResource(value = LoopbackCluster.class, scope = TestResourceScope.MATCHING_RESOURCES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ForwardingTest extends ClusterTest {

    TestMember b;
    TestMember c;

    @Override
    String keyPrefix() {
        return "fwd-";
    }

    @Override
    void addMembers() {
        b = cluster.add(Set.of("edge"));
        c = cluster.add(Set.of("edge"));
    }

    @Test
    @Order(1)
    void theLocalOwnerMissesThenHits() {
        String key = cluster.keyWhere(Set.of(), s -> is(s.owner(), app()));
        Response first = given().get("/cache/" + key);
        first.then().statusCode(200)
                .header(CacheAnswers.OWNER, appAddress())
                .header(CacheAnswers.SERVED_BY, appAddress())
                .header(CacheAnswers.RING, "v1")
                .header(CacheAnswers.CACHE, "MISS");
        assertThat(first.asByteArray()).isEqualTo(DemoOrigin.contentFor(key));
        assertThat(localCache.peek(key)).as("cached by its owner").isNotNull();

        // answered on the HTTP route (CacheRoute): the answer the resource gives
        Response hit = given().get("/cache/" + key);
        hit.then().statusCode(200)
                .header(CacheAnswers.OWNER, appAddress())
                .header(CacheAnswers.SERVED_BY, appAddress())
                .header(CacheAnswers.RING, "v1")
                .header(CacheAnswers.CACHE, "HIT")
                .header(CacheAnswers.FAILOVER, org.hamcrest.Matchers.nullValue())
                .contentType(first.contentType())
                .header("Content-Length", Integer.toString(DemoOrigin.contentFor(key).length));
        assertThat(hit.asByteArray()).isEqualTo(DemoOrigin.contentFor(key));
    }

    @Test
    @Order(2)
    void aRemoteOwnerServesAndCachesForwardedKeys() {
        for (TestMember owner : new TestMember[] {b, c}) {
            String key = cluster.keyWhere(Set.of(), s -> is(s.owner(), owner.member()));
            int fetchesBefore = owner.originFetches.get();

            Response first = given().get("/cache/" + key);
            first.then().statusCode(200)
                    .header(CacheAnswers.OWNER, owner.address())
                    .header(CacheAnswers.SERVED_BY, owner.address())
                    .header(CacheAnswers.CACHE, "MISS");
            assertThat(first.asByteArray()).isEqualTo(DemoOrigin.contentFor(key));

            given().get("/cache/" + key).then().statusCode(200)
                    .header(CacheAnswers.SERVED_BY, owner.address())
                    .header(CacheAnswers.CACHE, "HIT");

            assertThat(owner.originFetches.get() - fetchesBefore).as("origin fetches by the owner").isEqualTo(1);
            assertThat(owner.cached(key)).as("cached by its owner").isNotNull();
            assertThat(localCache.peek(key)).as("not cached by the member that forwarded").isNull();
        }
    }

    @Test
    @Order(3)
    void requiredFeaturesRouteOnlyToMembersThatHaveThem() {
        Set<String> edge = Set.of("edge");
        for (int i = 0; i < 20; i++) {
            String key = "fwd-edge-" + i;
            String served = given().header("X-Ketama-Features", "edge").get("/cache/" + key)
                    .then().statusCode(200).extract().header(CacheAnswers.SERVED_BY);
            assertThat(served).isIn(b.address(), c.address());
            assertThat(served).isEqualTo(Members.address(cluster.select(key, edge).owner()));
        }
    }

    @Test
    @Order(4)
    void routeNamesOwnerAndCandidatesWithoutFetching() {
        String key = cluster.keysWhere(Set.of(), s -> is(s.owner(), b.member()), 20).stream()
                .filter(k -> b.cached(k) == null).findFirst().orElseThrow();
        int fetchesBefore = b.originFetches.get();
        var expected = cluster.select(key, Set.of());
        given().get("/route/" + key).then().statusCode(200)
                .body("key", equalTo(key))
                .body("ring", equalTo("v1"))
                .body("owner.address", equalTo(b.address()))
                .body("owner.local", equalTo(false))
                .body("candidates", hasSize(3))
                .body("candidates[0].address", equalTo(b.address()))
                .body("candidates[1].address", equalTo(Members.address(expected.candidates().get(1))))
                .body("candidates.address", hasItems(appAddress(), b.address(), c.address()));
        assertThat(b.originFetches.get()).isEqualTo(fetchesBefore);
        assertThat(b.cached(key)).isNull();
    }

    @Test
    @Order(5)
    void ringShowsTheThreeMembers() {
        given().get("/ring").then().statusCode(200)
                .body("members", hasSize(3))
                .body("members.address", hasItems(appAddress(), b.address(), c.address()))
                .body("members.find { it.address == '" + b.address() + "' }.features", equalTo(java.util.List.of("edge")))
                .body("members.find { it.address == '" + b.address() + "' }.weight", equalTo(1))
                .body("members.find { it.address == '" + b.address() + "' }.datacenter", equalTo("default"))
                .body("members.find { it.local }.address", equalTo(appAddress()))
                .body("rings.v1.pointsPerWeight", equalTo(160))
                .body("rings.v2.pointsPerWeight", equalTo(16))
                .body("knownFeatures", equalTo(java.util.List.of("edge")))
                .body("lastRebuild.generation", org.hamcrest.Matchers.greaterThan(1));
    }

    @Test
    @Order(6)
    void metricsShowRoutingRingsAndFaultTolerance() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics)
                .contains("ketama_router_requests_total{cache=\"miss\",served=\"forwarded\"}")
                .contains("ketama_router_requests_total{cache=\"hit\",served=\"local\"}")
                .contains("ketama_router_cache_bytes")
                .contains("ketama_ring_points")
                .contains("ketama_members")
                .contains("ketama_router_forward_calls_total{member=\"" + b.address() + "\",result=\"answered\"}")
                .contains("ketama_router_forward_in_flight{member=\"" + b.address() + "\"}")
                .contains("ketama_router_forward_breaker_open{member=\"" + b.address() + "\"} 0.0");
    }
}
