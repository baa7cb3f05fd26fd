package io.ketama.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The check must fail, and say where, when a manifest is wrong (fixtures under src/test/fixtures). */
class BrokenManifestTest {
    private static final Renderer RENDERER = Renderer.forThisMachine();

    private static SchemaValidator.Result check(String fixture, Renderer renderer, String suffix) {
        Path dir = K8s.fixtures().resolve(fixture);
        List<Map<String, Object>> objects = renderer.render(dir);
        return SchemaValidator.get().validate(objects, K8s.renderWork().resolve("fixture-" + fixture + suffix + ".yaml"));
    }

    @Test
    void aBrokenOverlayOfTheRealBaseFailsTheCheckNamingEachMistake() {
        for (Renderer renderer : List.of(RENDERER, new KustomizeSubset())) {
            SchemaValidator.Result result = check("broken-overlay", renderer, "-" + renderer.getClass().getSimpleName());
            assertThat(result.valid()).as("the broken overlay must fail (%s)", renderer.name()).isFalse();
            assertThat(result.exitCode()).isEqualTo(1);
            assertThat(result.output())
                    .contains("INVALID")
                    .contains("apps/v1 StatefulSet/ketama-router")
                    .containsPattern("/spec/template/spec/containers/0/env/\\d+/value must be string")
                    .contains("/spec/template/spec/containers/0/resources/limits/memory must match format \"quantity\"")
                    .contains("SUMMARY objects=5 invalid=1");
        }
    }

    @Test
    void brokenObjectsAndUnknownKindsFailTheCheck() {
        SchemaValidator.Result result = check("broken-manifest", RENDERER, "");
        assertThat(result.valid()).isFalse();
        assertThat(result.output())
                .contains("StatefulSet/broken-router: /spec/replicas must be integer")
                .contains("StatefulSet/broken-router: /spec/template/spec/containers/0 must have required property name")
                .contains("/spec/template/spec/containers/0/ports/0/containerPort must be integer")
                .contains("v1 Servise/broken-router: / no schema for apiVersion \"v1\" kind \"Servise\"")
                .contains("SUMMARY objects=2 invalid=2");
    }
}
