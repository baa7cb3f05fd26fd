package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Issue 40, point 4: a member alone in its cluster, freshly started (a profile of its own restarts
 * the application), that has served nothing and forwarded nothing, already shows every metric the
 * Grafana dashboard, the Prometheus rules and the docs' PromQL read, so an alert's {@code rate()} has
 * a series from the first scrape; the forward meters are there with {@code member="none"} at 0, and
 * the quorum's gauges say a cluster of one changes its state at once. (SmallRye Fault Tolerance's
 * {@code ft_*} meters of the origin fetch appear at the first fetch: not the extension's to register.)
 */
@QuarkusTest
@TestProfile(StartupMetricsTest.Fresh.class)
class StartupMetricsTest {

    /** No setting of its own: a profile only so that this test gets an application nobody sent a request to. */
    public static class Fresh implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(LoopbackCluster.class));
        }
    }

    @Test
    void everyMetricTheDashboardAndTheRulesReadIsThereAtStartUp() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Set<String> scraped = metrics.lines().filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> l.split("[{ ]", 2)[0]).collect(Collectors.toCollection(TreeSet::new));
        Set<String> recorded = ObservabilityFiles.rules().stream().filter(r -> r.containsKey("record"))
                .map(r -> (String) r.get("record")).collect(Collectors.toSet());
        Map<String, Set<String>> missing = new TreeMap<>();
        ObservabilityFiles.expressions().forEach((where, expr) -> {
            for (String name : PromQlNames.of(expr)) {
                // the ketama meters; SmallRye Fault Tolerance registers its ft_* meters of the origin
                // fetch at the first fetch, which this member has not made (ObservabilityMetricNamesTest has them)
                if (name.startsWith("ketama") && !scraped.contains(name) && !recorded.contains(name)) {
                    missing.computeIfAbsent(name, n -> new TreeSet<>()).add(where);
                }
            }
        });
        for (String name : ObservabilityFiles.variableMetrics()) {
            if (name.startsWith("ketama") && !scraped.contains(name)) {
                missing.computeIfAbsent(name, n -> new TreeSet<>()).add("dashboard variable");
            }
        }
        assertThat(missing).as("metrics read but not in a fresh member's /q/metrics (names found there: %s)", scraped).isEmpty();

        assertThat(sample(metrics, "ketama_router_forward_calls_total{member=\"none\",result=\"failed\"}")).isZero();
        assertThat(sample(metrics, "ketama_router_forward_breaker_open{member=\"none\"}")).isZero();
        assertThat(sample(metrics, "ketama_quorum_expected_members")).isEqualTo(1.0);
        assertThat(sample(metrics, "ketama_quorum_seen_members")).isEqualTo(1.0);
        assertThat(sample(metrics, "ketama_quorum_required_members")).isEqualTo(1.0);
        assertThat(sample(metrics, "ketama_quorum_refusing")).isZero();
    }

    private static double sample(String metrics, String series) {
        return metrics.lines().filter(l -> l.startsWith(series + " "))
                .mapToDouble(l -> Double.parseDouble(l.substring(series.length() + 1)))
                .findFirst().orElseThrow(() -> new AssertionError(series + " not in /q/metrics:\n" + metrics));
    }
}
