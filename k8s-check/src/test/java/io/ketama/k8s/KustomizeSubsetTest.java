package io.ketama.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fallback path: a machine without kubectl renders with {@link KustomizeSubset}. On a machine with
 * kubectl, both renderers must produce the same objects, so the fallback stays faithful.
 */
class KustomizeSubsetTest {
    private final KustomizeSubset subset = new KustomizeSubset();

    static List<String> overlays() {
        return K8s.overlays();
    }

    private static Map<String, Map<String, Object>> byId(List<Map<String, Object>> objects) {
        Map<String, Map<String, Object>> out = new TreeMap<>();
        objects.forEach(o -> assertThat(out.put(K8s.id(o), o)).as("duplicate %s", K8s.id(o)).isNull());
        return out;
    }

    private static Renderer.Kubectl kubectl() {
        var found = Processes.onPath("kubectl");
        assumeTrue(found.isPresent(), "kubectl is not installed: nothing to compare the built-in renderer with");
        return new Renderer.Kubectl(found.get());
    }

    @Test
    void withoutKubectlOnThePathTheBuiltInRendererIsChosen(@TempDir Path emptyBin) throws Exception {
        assertThat(Renderer.choose(emptyBin.toString())).isInstanceOf(KustomizeSubset.class);
        assertThat(Renderer.choose("")).isInstanceOf(KustomizeSubset.class);
        Path fake = Files.createFile(emptyBin.resolve("kubectl"));
        assertThat(fake.toFile().setExecutable(true)).isTrue();
        assertThat(Renderer.choose(emptyBin.toString())).isInstanceOf(Renderer.Kubectl.class);
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void everyOverlayRendersOfflineWithoutKubectlAndPassesTheSchema(String overlay) {
        List<Map<String, Object>> objects = subset.render(K8s.overlay(overlay));
        SchemaValidator.Result result = SchemaValidator.get()
                .validate(objects, K8s.renderWork().resolve(overlay + "-built-in.yaml"));
        assertThat(result.valid()).as("%s rendered by the built-in renderer:%n%s", overlay, result.output()).isTrue();
    }

    @ParameterizedTest
    @MethodSource("overlays")
    void theBuiltInRendererAgreesWithKubectlOnEveryOverlay(String overlay) {
        Renderer.Kubectl kubectl = kubectl();
        assertThat(byId(subset.render(K8s.overlay(overlay))))
                .isEqualTo(byId(kubectl.render(K8s.overlay(overlay))));
    }

    @Test
    void theBuiltInRendererAgreesWithKubectlOnEveryFeatureItImplements() {
        Path dir = K8s.fixtures().resolve("renderer-features/overlay");
        List<Map<String, Object>> ours = subset.render(dir);
        // shown even where kubectl is missing: the features are really exercised
        Map<String, Object> web = K8s.find(ours, "Deployment", "web").orElseThrow();
        assertThat(K8s.at(web, "spec", "replicas")).isEqualTo(4);
        assertThat(K8s.maps(web, "spec", "template", "spec", "containers"))
                .extracting(c -> c.get("name")).containsExactly("main", "sidecar", "helper");
        assertThat(K8s.maps(K8s.maps(web, "spec", "template", "spec", "containers").get(0), "env"))
                .extracting(e -> e.get("name")).containsExactly("SECOND", "THIRD", "FIRST");
        assertThat(K8s.map(K8s.find(ours, "ConfigMap", "settings").orElseThrow(), "data"))
                .containsOnlyKeys("KEEP", "CHANGE", "ADDED").containsEntry("CHANGE", "after");

        assertThat(byId(ours)).isEqualTo(byId(kubectl().render(dir)));
    }

    @Test
    void fieldsOutsideTheSubsetAreRefusedByName() {
        assertThatThrownBy(() -> subset.render(K8s.fixtures().resolve("unsupported-field")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("namePrefix")
                .hasMessageContaining("kustomization.yaml");
    }

    @Test
    void aMissingPatchTargetIsAnError(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("kustomization.yaml"), """
                resources: [cm.yaml]
                patches:
                  - patch: |-
                      apiVersion: v1
                      kind: ConfigMap
                      metadata: {name: other}
                      data: {A: "2"}
                """);
        Files.writeString(dir.resolve("cm.yaml"), """
                apiVersion: v1
                kind: ConfigMap
                metadata: {name: settings}
                data: {A: "1"}
                """);
        assertThatThrownBy(() -> subset.render(dir)).hasMessageContaining("ConfigMap/other not found");
    }
}
