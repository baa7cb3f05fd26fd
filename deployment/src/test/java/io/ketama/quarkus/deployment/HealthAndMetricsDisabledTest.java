package io.ketama.quarkus.deployment;

import io.ketama.quarkus.RingSelector;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

/**
 * With quarkus.ketama.health.enabled=false and quarkus.ketama.metrics.enabled=false the extension
 * publishes no health check and no meter, though the application has SmallRye Health and
 * Micrometer, and selections still work.
 */
class HealthAndMetricsDisabledTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-switched-off", 1);

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app(
            "quarkus.ketama.health.enabled", "false",
            "quarkus.ketama.metrics.enabled", "false");

    @Inject
    RingSelector selector;

    @Test
    void selectionsWorkWithoutChecksOrMeters() {
        assertThat(selector.isReady()).isTrue();
        assertThat(selector.select("k").owner()).isEqualTo(selector.snapshot().localMember());

        String metrics = RestAssured.when().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).contains("jvm_").doesNotContain("ketama_");
        RestAssured.when().get("/q/health").then().statusCode(200)
                .body(not(containsString("ketama-rings")))
                .body(not(containsString("ketama-hazelcast")));
    }
}
