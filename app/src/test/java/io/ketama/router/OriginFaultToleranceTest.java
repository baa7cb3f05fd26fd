package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * SmallRye Fault Tolerance on the origin fetch against a real failing HTTP origin
 * ({@link FailingOrigin}: connections closed without an answer, answers too slow), with values set
 * the Quarkus way ({@code quarkus.fault-tolerance."io.ketama.router.serving.OriginGuard/fetch".*}),
 * not the annotation's: two retries (the annotation says one), a 500 ms timeout (it says 5 s), a
 * breaker that opens on 10 failures in a row and stays open. The breaker is shared by every fetch,
 * so the tests run in order, the one that opens it last.
 */
@QuarkusTest
@TestProfile(OriginFaultToleranceTest.Profile.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OriginFaultToleranceTest {

    static final int PORT = FailingOrigin.freePort();
    private static final String FT = "quarkus.fault-tolerance.\"io.ketama.router.serving.OriginGuard/fetch\".";

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("ketama.router.origin.base-url", FailingOrigin.baseUrl(PORT),
                    FT + "retry.max-retries", "2",
                    FT + "retry.delay", "10",
                    FT + "retry.jitter", "0",
                    FT + "timeout.value", "500",
                    FT + "circuit-breaker.request-volume-threshold", "10",
                    FT + "circuit-breaker.failure-ratio", "1.0",
                    FT + "circuit-breaker.delay", "600000");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(LoopbackCluster.class));
        }
    }

    FailingOrigin origin;

    @BeforeAll
    void startOrigin() throws Exception {
        origin = FailingOrigin.start(PORT);
    }

    @AfterAll
    void stopOrigin() throws Exception {
        origin.close();
    }

    @Test
    @Order(1)
    void aFetchWhoseConnectionIsCutIsRetriedAndServed() {
        String key = "cut2-" + System.nanoTime();
        given().get("/cache/" + key).then().statusCode(200)
                .header(CacheAnswers.CACHE, "MISS")
                .body(equalTo("answer for " + key));
        assertThat(origin.requests(key)).as("requests the origin got: two cut, the third answered").isEqualTo(3);
        // cached: the next request does not reach the origin
        given().get("/cache/" + key).then().statusCode(200).header(CacheAnswers.CACHE, "HIT");
        assertThat(origin.requests(key)).isEqualTo(3);
    }

    @Test
    @Order(2)
    void aFetchCutMoreOftenThanTheRetriesIsA502() {
        String key = "cut3-" + System.nanoTime();
        given().get("/cache/" + key).then().statusCode(502).body("type", containsString("origin-unavailable"));
        assertThat(origin.requests(key)).as("the first try and two retries").isEqualTo(3);
    }

    @Test
    @Order(3)
    void aSlowOriginTimesOutAndIsNotRetried() {
        String key = "slow3000-" + System.nanoTime();
        given().get("/cache/" + key).then().statusCode(502)
                .body("type", containsString("origin-unavailable"))
                .body("detail", containsString("fault-tolerance timeout"));
        assertThat(origin.requests(key)).as("a timed-out fetch is not retried").isEqualTo(1);
    }

    @Test
    @Order(4)
    void anOriginThatKeepsFailingOpensTheBreakerAndIsNoLongerAsked() {
        // up to now: 3 failed and 1 answered, 3 failed, 1 timed out; 10 failures in a row open it
        String opened = null;
        for (int i = 0; i < 10 && opened == null; i++) {
            String key = "down-" + i + "-" + System.nanoTime();
            String detail = given().get("/cache/" + key).then().statusCode(502).extract().path("detail");
            if (detail.contains("circuit breaker is open")) {
                opened = key;
            }
        }
        assertThat(opened).as("a request refused by the open breaker within 10 requests").isNotNull();
        // its first attempt may be the failure that opened the breaker; its retry was refused
        assertThat(origin.requests(opened)).as("requests the origin got for the key whose retry the breaker refused").isLessThanOrEqualTo(1);
        for (int i = 0; i < 3; i++) {
            String later = "fine-" + i + "-" + System.nanoTime();
            given().get("/cache/" + later).then().statusCode(502).body("detail", containsString("circuit breaker is open"));
            assertThat(origin.requests(later)).as("an origin behind an open breaker is not asked").isZero();
        }
    }

    @Test
    @Order(5)
    void theGuardsMetersAreOnTheMembersMetrics() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        String method = "method=\"" + io.ketama.router.serving.OriginGuard.METHOD + "\"";
        List<String> ours = metrics.lines().filter(l -> l.startsWith("ft_") && l.contains(method)).toList();
        assertThat(ours).as("ft_ meters of the origin guard").isNotEmpty();
        assertThat(value(ours, "ft_retry_retries_total")).as("retries").isGreaterThanOrEqualTo(4);
        assertThat(value(ours, "ft_timeout_calls_total", "timedOut=\"true\"")).as("timed-out fetches").isGreaterThanOrEqualTo(1);
        assertThat(value(ours, "ft_circuitbreaker_opened_total")).as("breaker openings").isEqualTo(1);
    }

    private static double value(List<String> lines, String name, String... labels) {
        return lines.stream().filter(l -> l.startsWith(name + "{") && java.util.Arrays.stream(labels).allMatch(l::contains))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }
}
