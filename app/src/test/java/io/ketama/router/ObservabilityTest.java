package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;

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
    void openApiDescribesEveryEndpoint() {
        given().accept("application/json").get("/q/openapi").then().statusCode(200)
                .body("paths.'/cache/{key}'.get", notNullValue())
                .body("paths.'/route/{key}'.get", notNullValue())
                .body("paths.'/ring'.get", notNullValue())
                .body("paths.'/admin/migration'.get", notNullValue())
                .body("paths.'/admin/migration'.put", notNullValue())
                .body("paths.'/cache/{key}'.get.responses.keySet()", hasItem("414"))
                .body("components.schemas.Problem", notNullValue());
    }
}
