package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The files of k8s/observability agree with each other and with the base manifests: the operator's
 * PrometheusRule holds the rules file word for word, the ServiceMonitor scrapes /q/metrics on a
 * port the metrics Service has and the StatefulSet's containers name, and the dashboard's panels
 * have unique ids, a query each and no overlap.
 */
class ObservabilityManifestsTest {

    @Test
    @SuppressWarnings("unchecked")
    void thePrometheusRuleHoldsTheRulesFile() {
        Map<String, Object> rule = new Yaml().load(ObservabilityFiles.read(ObservabilityFiles.DIR.resolve("prometheusrule.yaml")));
        Map<String, Object> rules = new Yaml().load(ObservabilityFiles.read(ObservabilityFiles.RULES));
        assertThat(rule.get("kind")).isEqualTo("PrometheusRule");
        assertThat(rule.get("apiVersion")).isEqualTo("monitoring.coreos.com/v1");
        assertThat(rule.get("spec")).as("spec of prometheusrule.yaml against ketama-rules.yaml").isEqualTo(rules);
    }

    @Test
    @SuppressWarnings("unchecked")
    void theServiceMonitorScrapesTheManagementPortOfEveryMember() {
        Map<String, Object> monitor = new Yaml().load(ObservabilityFiles.read(ObservabilityFiles.DIR.resolve("servicemonitor.yaml")));
        Map<String, Object> service = new Yaml().load(ObservabilityFiles.read(ObservabilityFiles.DIR.resolve("service-metrics.yaml")));
        Map<String, Object> spec = (Map<String, Object>) monitor.get("spec");
        Map<String, String> selector = (Map<String, String>) ((Map<String, Object>) spec.get("selector")).get("matchLabels");
        Map<String, String> serviceLabels = (Map<String, String>) ((Map<String, Object>) service.get("metadata")).get("labels");
        assertThat(serviceLabels).as("labels of the metrics Service").containsAllEntriesOf(selector);
        // the client Service must not be picked too: it has no management port
        Map<String, Object> client = new Yaml().load(ObservabilityFiles.read(ObservabilityFiles.REPO.resolve("k8s/base/service.yaml")));
        assertThat((Map<String, String>) ((Map<String, Object>) client.get("metadata")).get("labels")).doesNotContainEntry(
                "app.kubernetes.io/component", selector.get("app.kubernetes.io/component"));

        Map<String, Object> endpoint = ((List<Map<String, Object>>) spec.get("endpoints")).get(0);
        assertThat(endpoint.get("path")).isEqualTo("/q/metrics");
        List<Map<String, Object>> ports = (List<Map<String, Object>>) ((Map<String, Object>) service.get("spec")).get("ports");
        Map<String, Object> port = ports.stream().filter(p -> p.get("name").equals(endpoint.get("port"))).findFirst().orElseThrow();
        assertThat(port.get("port")).isEqualTo(9000);

        Set<String> containerPorts = new HashSet<>();
        for (Object doc : new Yaml().loadAll(ObservabilityFiles.read(ObservabilityFiles.REPO.resolve("k8s/base/statefulset.yaml")))) {
            Map<String, Object> podSpec = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) doc)
                    .get("spec")).get("template")).get("spec");
            for (Map<String, Object> c : (List<Map<String, Object>>) podSpec.get("containers")) {
                for (Map<String, Object> p : (List<Map<String, Object>>) c.get("ports")) {
                    if (p.get("containerPort").equals(9000)) {
                        containerPorts.add((String) p.get("name"));
                    }
                }
            }
        }
        assertThat(containerPorts).as("names of the containers' port 9000").contains((String) port.get("targetPort"));
    }

    @Test
    void theDashboardsPanelsHaveUniqueIdsAQueryEachAndDoNotOverlap() {
        JsonNode panels = ObservabilityFiles.json(ObservabilityFiles.DASHBOARD).path("panels");
        Set<Integer> ids = new HashSet<>();
        boolean[][] grid = new boolean[400][24];
        for (JsonNode p : panels) {
            assertThat(ids.add(p.path("id").asInt())).as("id of '%s' is unique", p.path("title").asText()).isTrue();
            if (!p.path("type").asText().equals("row")) {
                assertThat(p.path("targets").size()).as("queries of '%s'", p.path("title").asText()).isPositive();
            }
            JsonNode g = p.path("gridPos");
            for (int y = g.path("y").asInt(); y < g.path("y").asInt() + g.path("h").asInt(); y++) {
                for (int x = g.path("x").asInt(); x < g.path("x").asInt() + g.path("w").asInt(); x++) {
                    assertThat(grid[y][x]).as("'%s' overlaps another panel at x=%d y=%d", p.path("title").asText(), x, y).isFalse();
                    grid[y][x] = true;
                }
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theExtensionsGuideIsTheConfigurationReferenceAndTheReadmeLinksItAndTheDashboards() {
        Map<String, Object> descriptor = new Yaml().load(ObservabilityFiles.read(
                ObservabilityFiles.REPO.resolve("runtime/src/main/resources/META-INF/quarkus-extension.yaml")));
        String guide = (String) ((Map<String, Object>) descriptor.get("metadata")).get("guide");
        assertThat(guide).as("metadata.guide").isEqualTo("docs/quarkus-ketama.md");
        assertThat(ObservabilityFiles.read(ObservabilityFiles.REPO.resolve(guide))).as("the guide's file")
                .contains("quarkus.ketama.");
        String readme = ObservabilityFiles.read(ObservabilityFiles.REPO.resolve("README.md"));
        for (String link : List.of("docs/quarkus-ketama.md", "k8s/observability/ketama-router-dashboard.json",
                "k8s/observability/ketama-rules.yaml", "k8s/observability/README.md")) {
            assertThat(readme).as("README links %s", link).contains("](" + link + ")");
            assertThat(ObservabilityFiles.REPO.resolve(link)).exists();
        }
    }
}
