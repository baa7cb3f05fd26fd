package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** Readiness, metrics and the OpenAPI document are served. */
@QuarkusTest
@WithTestResource(value = LoopbackCluster.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ObservabilityTest {

    @Test
    void readyOnceTheRingsHoldThisMember() {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void metricsListTheRouterAndRingMetersFromTheFirstScrape() {
        given().get("/q/metrics").then().statusCode(200)
                .body(containsString("ketama_router_requests_total"))
                .body(containsString("ketama_router_cache_max_bytes"))
                .body(containsString("ketama_ring_points"));
    }

    @Test
    void theLocalCacheIsMeteredByMicrometersCaffeineBinder() {
        String key = "observability-" + System.nanoTime();
        given().get("/cache/" + key).then().statusCode(200);
        given().get("/cache/" + key).then().statusCode(200);
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).contains("cache_size{cache=\"ketama-router\"");
        assertThat(sample(metrics, "cache_gets_total{cache=\"ketama-router\",result=\"miss\"}")).isGreaterThanOrEqualTo(1);
        assertThat(sample(metrics, "cache_gets_total{cache=\"ketama-router\",result=\"hit\"}")).isGreaterThanOrEqualTo(1);
        // answers written on the HTTP route (CacheRoute) count under the resource's URI, not one series per key
        assertThat(metrics).contains("uri=\"/cache/{key: .*}\"").doesNotContain("uri=\"/cache/" + key);
    }

    private static double sample(String metrics, String series) {
        return metrics.lines().filter(l -> l.startsWith(series + " ")).mapToDouble(l -> Double.parseDouble(l.substring(series.length() + 1)))
                .findFirst().orElseThrow(() -> new AssertionError(series + " not in /q/metrics"));
    }

    @Test
    void openApiDescribesEveryEndpoint() {
        given().accept("application/json").get("/q/openapi").then().statusCode(200)
                .body("paths.'/cache/{key}'.get", notNullValue())
                .body("paths.'/route/{key}'.get", notNullValue())
                .body("paths.'/ring'.get", notNullValue())
                .body("paths.'/admin/migration'", nullValue())
                .body("paths.'/cache/{key}'.get.responses.keySet()", hasItem("414"))
                .body("components.schemas.Problem", notNullValue());
    }
}
