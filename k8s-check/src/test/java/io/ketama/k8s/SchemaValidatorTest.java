package io.ketama.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The schema check itself: what it accepts and what it refuses, each refusal named by its path. */
class SchemaValidatorTest {

    private static final SchemaValidator VALIDATOR = SchemaValidator.get();

    private static Map<String, Object> yaml(String text) {
        return Yamls.loadAll(text, "test").get(0);
    }

    private static List<String> errors(String text) {
        return VALIDATOR.errors(yaml(text));
    }

    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata: {name: p}
            spec:
              containers:
                - name: c
                  image: i
                  ports: [{containerPort: 8080}]
                  resources: {limits: {memory: %s, cpu: 500m}}
                  readinessProbe: {httpGet: {path: /q/health/ready, port: %s}}
            """;

    @Test
    void aWellFormedObjectPasses() {
        assertThat(errors(POD.formatted("1536Mi", "http"))).isEmpty();
        assertThat(errors(POD.formatted("1e9", "8080"))).isEmpty();
        assertThat(errors(POD.formatted("0.5Gi", "8080"))).isEmpty();
    }

    @Test
    void quantitiesFollowTheKubernetesGrammar() {
        assertThat(errors(POD.formatted("'1.5 GiB'", "http")))
                .containsExactly("/spec/containers/0/resources/limits/memory must match format \"quantity\"");
        assertThat(errors(POD.formatted("1.5GB", "http"))).hasSize(1);
    }

    @Test
    void unknownFieldsMissingRequiredFieldsAndWrongTypesAreEachNamed() {
        List<String> errors = errors("""
                apiVersion: v1
                kind: Pod
                metadata: {name: p, lables: {a: b}}
                spec:
                  containers:
                    - image: i
                      env: [{name: A, value: 2}]
                      ports: [{containerPort: "8080"}]
                  hostNetwork: "yes"
                """);
        assertThat(errors).containsExactlyInAnyOrder(
                "/metadata must NOT have additional properties: lables is no field of ObjectMeta",
                "/spec/containers/0 must have required property name",
                "/spec/containers/0/env/0/value must be string",
                "/spec/containers/0/ports/0/containerPort must be integer",
                "/spec/hostNetwork must be boolean");
    }

    @Test
    void aKindIsKnownOnlyUnderItsOwnGroupAndAnExistingVersion() {
        assertThat(errors("{apiVersion: apps/v1, kind: ConfigMap, metadata: {name: x}}"))
                .containsExactly("/ no schema for apiVersion \"apps/v1\" kind \"ConfigMap\" (unknown or misspelt)");
        assertThat(errors("{apiVersion: v7, kind: ConfigMap, metadata: {name: x}}")).hasSize(1);
        assertThat(errors("{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {a: b}}")).isEmpty();
        assertThat(errors("{apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: x}, spec: {maxUnavailable: 1}}"))
                .isEmpty();
    }

    @Test
    void anObjectWithoutANameFails() {
        assertThat(errors("{apiVersion: v1, kind: ConfigMap, metadata: {labels: {a: b}}}"))
                .containsExactly("/metadata/name must be a non-empty string");
    }

    @Test
    void badYamlIsReportedAsAnInputErrorNotAsValid(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("bad.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [\n");
        SchemaValidator.Result result = VALIDATOR.validate(List.of(file));
        assertThat(result.valid()).isFalse();
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.output()).contains("ERROR").contains("YAML");
    }
}
