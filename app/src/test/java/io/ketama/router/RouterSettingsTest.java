package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ketama.router.forwarding.TransportKind;
import io.quarkus.runtime.configuration.DurationConverter;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.runtime.configuration.MemorySizeConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link RouterSettings#from}: the service's keys read from a real config source through the
 * {@link RouterConfig} mapping, validated once, every invalid key named together.
 */
class RouterSettingsTest {

    private static RouterConfig config(Map<String, String> values) {
        SmallRyeConfig config = new SmallRyeConfigBuilder()
                .withMapping(RouterConfig.class)
                .withConverter(MemorySize.class, 200, new MemorySizeConverter())
                .withConverter(Duration.class, 200, new DurationConverter()) // Quarkus reads 25ms, 5s
                .withSources(new PropertiesConfigSource(values, "test", 500))
                .build();
        return config.getConfigMapping(RouterConfig.class);
    }

    @Test
    void theDefaultsAreValidAndHeldAsTypedValues() {
        RouterSettings settings = RouterSettings.from(config(Map.of()), 8080);
        assertThat(settings.cacheMaxBytes()).isEqualTo(64L << 20);
        assertThat(settings.origin().maxBodyBytes()).isEqualTo(16 << 20);
        assertThat(settings.origin().baseUrl()).isEmpty();
        assertThat(settings.maxInFlight()).isEqualTo(128);
        assertThat(settings.forward().transport()).isEqualTo(TransportKind.BINARY);
        assertThat(settings.forward().secret().required()).isFalse();
        assertThat(settings.guards().maxCandidates()).isEqualTo(3);
        assertThat(settings.hotKeys().top()).isEqualTo(32);
        assertThat(settings.nearCache().enabled()).isTrue();
        assertThat(settings.nearCache().maxBytes()).isEqualTo(16L << 20);
        assertThat(settings.boundedLoad().window()).isEqualTo(Duration.ofMillis(500));
        assertThat(settings.boundedLoad().enabled()).as("the extension's switch is joined where the parts are made").isFalse();
    }

    @Test
    void oneInvalidKeyIsNamedWithWhatIsAllowed() {
        assertThatThrownBy(() -> RouterSettings.from(config(Map.of("ketama.router.near-cache.ttl", "2h")), 8080))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid configuration ketama.router.near-cache.ttl: must be more than 0 and at most 1 h, e.g. 1s; "
                        + "was PT2H");
    }

    @Test
    void everyInvalidKeyIsNamedTogether() {
        RouterConfig bad = config(Map.of(
                "ketama.router.cache.max-bytes", "0",
                "ketama.router.origin.base-url", "ftp://origin.example",
                "ketama.router.forward.transport", "http",
                "ketama.router.forward.bulkhead.max-waiting", "0",
                "ketama.router.forward.binary.port", "70000",
                "ketama.router.bounded-load.window", "1ms",
                "ketama.router.hot-keys.min-requests", "0"));
        assertThatThrownBy(() -> RouterSettings.from(bad, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("7 invalid configuration keys:\n")
                .hasMessageContaining("invalid configuration ketama.router.cache.max-bytes: must be 1 to ")
                .hasMessageContaining("invalid configuration ketama.router.origin.base-url / .timeout / .max-connections: "
                        + "origin base URL 'ftp://origin.example' must be an absolute http:// or https:// URL")
                .hasMessageContaining("invalid configuration ketama.router.forward.transport: http forwards to each member's "
                        + "own HTTP port")
                .hasMessageContaining("invalid configuration ketama.router.forward.bulkhead.max-waiting: ")
                .hasMessageContaining("invalid configuration ketama.router.forward.binary.port: must be in 0..65535")
                .hasMessageContaining("invalid configuration ketama.router.bounded-load.window: must be 10 ms to 10 s")
                .hasMessageContaining("invalid configuration ketama.router.hot-keys.min-requests: must be 1 to ");
    }

    /** A base URL that is not a URI at all is named beside the others, not thrown alone by what rewrites its redirects. */
    @Test
    void aBaseUrlThatIsNoUriIsNamedWithTheOtherInvalidKeys() {
        RouterConfig bad = config(Map.of(
                "ketama.router.origin.base-url", "http://origin example/",
                "ketama.router.origin.rewrite-location", "true",
                "ketama.router.hot-keys.min-requests", "0"));
        assertThatThrownBy(() -> RouterSettings.from(bad, 8080))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("2 invalid configuration keys:\n")
                .hasMessageContaining("invalid configuration ketama.router.origin.base-url / .timeout / .max-connections: ")
                .hasMessageContaining("http://origin example/")
                .hasMessageContaining("invalid configuration ketama.router.hot-keys.min-requests: must be 1 to ");
    }

    @Test
    void aBufferLimitBelowTheLargestBodyIsNamedWithTheBodyLimit() {
        assertThatThrownBy(() -> RouterSettings.from(config(Map.of(
                "ketama.router.origin.max-body-bytes", "2M",
                "ketama.router.admission.max-buffered-bytes", "1M")), 8080))
                .hasMessageStartingWith("invalid configuration ketama.router.admission.max-buffered-bytes: must be 2097152 to ");
    }
}
