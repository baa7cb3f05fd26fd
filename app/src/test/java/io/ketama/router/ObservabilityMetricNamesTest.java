package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every metric the Grafana dashboard, the Prometheus rules and the docs' PromQL read
 * (k8s/observability/, the README's ```promql blocks) is in a scrape of a real member's
 * {@code /q/metrics}: the app's member with a second member joined, after a miss, a hit and a
 * forward, so that meters made on first use (a target member's forward guard) are there too.
 */
@QuarkusTest
@WithTestResource(value = LoopbackCluster.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ObservabilityMetricNamesTest extends ClusterTest {

    TestMember other;

    @Override
    String keyPrefix() {
        return "obs-names-";
    }

    @Override
    void addMembers() {
        other = cluster.add(Set.of());
    }

    @Test
    void everyMetricTheDashboardTheRulesAndTheDocsReadIsScraped() {
        String local = cluster.keyWhere(Set.of(), s -> is(s.owner(), app()));
        String remote = cluster.keyWhere(Set.of(), s -> is(s.owner(), other.member()));
        given().get("/cache/" + local).then().statusCode(200);
        given().get("/cache/" + local).then().statusCode(200);
        given().get("/cache/" + remote).then().statusCode(200);
        Set<String> scraped = given().get("/q/metrics").then().statusCode(200).extract().asString().lines()
                .filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> l.split("[{ ]", 2)[0]).collect(Collectors.toCollection(TreeSet::new));

        Set<String> recorded = ObservabilityFiles.rules().stream().filter(r -> r.containsKey("record"))
                .map(r -> (String) r.get("record")).collect(Collectors.toSet());
        Map<String, String> expressions = ObservabilityFiles.expressions();
        assertThat(expressions.keySet()).as("expressions found")
                .anyMatch(w -> w.startsWith("dashboard")).anyMatch(w -> w.startsWith("rules alert"))
                .anyMatch(w -> w.startsWith("README.md promql"));
        Map<String, Set<String>> missing = new TreeMap<>();
        expressions.forEach((where, expr) -> {
            Set<String> names = PromQlNames.of(expr);
            assertThat(names).as("metrics read by %s: %s", where, expr).isNotEmpty();
            for (String name : names) {
                if (!scraped.contains(name) && !recorded.contains(name)) {
                    missing.computeIfAbsent(name, n -> new TreeSet<>()).add(where);
                }
            }
        });
        for (String name : ObservabilityFiles.variableMetrics()) {
            if (!scraped.contains(name)) {
                missing.computeIfAbsent(name, n -> new TreeSet<>()).add("dashboard variable");
            }
        }
        assertThat(missing).as("metrics read but not in a member's /q/metrics (names found there: %s)", scraped).isEmpty();
    }

    @Test
    void eachMembersRingShareIsItsPartOfTheCircleOverItsWeightShare() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(sample(metrics, "ketama_members_local")).as("this member on its rings").isEqualTo(1.0);
        for (String version : new String[] {"v1", "v2"}) {
            double a = sample(metrics, "ketama_ring_share_ratio{member=\"" + appAddress() + "\",version=\"" + version + "\"}");
            double b = sample(metrics, "ketama_ring_share_ratio{member=\"" + io.ketama.router.serving.Members.address(other.member())
                    + "\",version=\"" + version + "\"}");
            // two members of equal weight: the shares add up to the circle, so the ratios (share / 0.5) average 1
            assertThat((a + b) / 2).as("mean ratio on %s", version).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(a).as("%s ratio of a member with 16+ points", version).isBetween(0.2, 1.8);
            // and the coefficient of variation of two ratios around 1 is their distance from it
            assertThat(sample(metrics, "ketama_ring_share_cov{version=\"" + version + "\"}")).as("CoV on %s", version)
                    .isCloseTo(Math.abs(a - 1), org.assertj.core.data.Offset.offset(1e-9));
        }
    }

    private static double sample(String metrics, String series) {
        return metrics.lines().filter(l -> l.startsWith(series + " "))
                .mapToDouble(l -> Double.parseDouble(l.substring(series.length() + 1)))
                .findFirst().orElseThrow(() -> new AssertionError(series + " not in /q/metrics"));
    }
}
