package io.ketama.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The metrics Service of k8s/observability passes the Kubernetes schema like the overlays' objects.
 * (The ServiceMonitor and PrometheusRule are Prometheus-operator resources, outside the Kubernetes
 * schema: their fields are checked against the base manifests by the app's ObservabilityManifestsTest.)
 */
class ObservabilityManifestsSchemaTest {

    @Test
    void theMetricsServicePassesTheKubernetesSchema() {
        Path service = K8s.k8sDir().resolve("observability/service-metrics.yaml");
        SchemaValidator.Result result = SchemaValidator.get().validate(List.of(service));
        assertThat(result.valid()).as("k8s/observability/service-metrics.yaml:%n%s", result.output()).isTrue();
        assertThat(result.output()).contains("OK " + service + " v1 Service/ketama-router-metrics");
    }
}
