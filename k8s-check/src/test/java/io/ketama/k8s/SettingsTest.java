package io.ketama.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The settings check applies the extension's and the service's own rules, in property and environment form. */
class SettingsTest {

    private static List<String> problems(Map<String, String> settings) {
        List<String> problems = new ArrayList<>();
        Settings.problems(settings, problems);
        return problems;
    }

    @Test
    void keysAreKnownFromTheMappingsInEitherForm() {
        assertThat(Settings.known("quarkus.ketama.migration.v2-share")).isTrue();
        assertThat(Settings.known("QUARKUS_KETAMA_MIGRATION_V2_SHARE")).isTrue();
        assertThat(Settings.known("quarkus.ketama.metrics.enabled")).as("a build-time key").isTrue();
        assertThat(Settings.known("KETAMA_ROUTER_CACHE_MAX_BYTES")).as("a key of the service").isTrue();
        assertThat(Settings.known("QUARKUS_KETAMA_MIGRATION_V2_SHAR")).isFalse();
        assertThat(Settings.known("quarkus.ketama.member.wieght")).isFalse();
        assertThat(Settings.ownNamespace("QUARKUS_KETAMA_X")).isTrue();
        assertThat(Settings.ownNamespace("quarkus.http.port")).isFalse();
    }

    @Test
    void validSettingsPass() {
        assertThat(problems(Map.of(
                "QUARKUS_KETAMA_MIGRATION_MODE", "split",
                "QUARKUS_KETAMA_MIGRATION_V2_SHARE", "0.5",
                "quarkus.ketama.member.weight", "1000",
                "quarkus.ketama.rebuild.coalesce-delay", "200ms",
                "KETAMA_ROUTER_CACHE_MAX_BYTES", "512M",
                "QUARKUS_HTTP_PORT", "8080"))).isEmpty();
    }

    @Test
    void valuesTheExtensionRefusesAtStartUpAreRefused() {
        assertThat(problems(Map.of("quarkus.ketama.member.weight", "1001")))
                .singleElement().asString().contains("quarkus.ketama.member.weight must be an integer from 1 to 1000");
        assertThat(problems(Map.of("QUARKUS_KETAMA_MIGRATION_V2_SHARE", "150")))
                .singleElement().asString().contains("quarkus.ketama.migration.v2-share must be a percentage from 0 to 100");
        assertThat(problems(Map.of("QUARKUS_KETAMA_HAZELCAST_MEMBERS", "127.0.0.1:5701-5703")))
                .singleElement().asString().contains("port range");
        assertThat(problems(Map.of("quarkus.ketama.member.features", "pci,,ssd")))
                .singleElement().asString().contains("empty feature");
    }

    @Test
    void valuesNoMappingCanConvertAreRefused() {
        assertThat(problems(Map.of("QUARKUS_KETAMA_MIGRATION_MODE", "v3")))
                .singleElement().asString().contains("quarkus.ketama.migration.mode").contains("allowed values");
        assertThat(problems(Map.of("quarkus.ketama.hash-style", "ketama")))
                .singleElement().asString().contains("quarkus.ketama.hash-style");
        assertThat(problems(Map.of("KETAMA_ROUTER_ORIGIN_DEMO_DELAY", "soon")))
                .singleElement().asString().contains("ketama.router.origin.demo-delay");
        assertThat(problems(Map.of("QUARKUS_HTTP_PORT", "70000"))).singleElement().asString().contains("1 to 65535");
    }
}
