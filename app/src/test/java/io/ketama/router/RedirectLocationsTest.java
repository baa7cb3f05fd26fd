package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which {@code Location}s point into the origin and what the client is sent instead. */
class RedirectLocationsTest {

    private final RedirectLocations onPath = RedirectLocations.of(Optional.of("http://Origin.Example:8081/objects/"), true);
    private final RedirectLocations atRoot = RedirectLocations.of(Optional.of("https://origin.example"), true);

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "http://origin.example:8081/objects/k2|/cache/k2",
            "HTTP://ORIGIN.EXAMPLE:8081/objects/a/b%20c?w=200&h=1#top|/cache/a/b%20c?w=200&h=1#top",
            "/objects/k3?x=1|/cache/k3?x=1",
            "//origin.example:8081/objects/k4|/cache/k4",
            // left alone: elsewhere, another port or scheme, outside the base path, the base itself, relative paths
            "https://origin.example:8081/objects/k2|https://origin.example:8081/objects/k2",
            "http://origin.example:8082/objects/k2|http://origin.example:8082/objects/k2",
            "http://origin.example/objects/k2|http://origin.example/objects/k2",
            "http://elsewhere.example:8081/objects/k2|http://elsewhere.example:8081/objects/k2",
            "http://origin.example:8081/objectsX/k2|http://origin.example:8081/objectsX/k2",
            "/other/k2|/other/k2",
            "/objects/|/objects/",
            "http://origin.example:8081/objects|http://origin.example:8081/objects",
            "http://origin.example:8081/objects?k=1|http://origin.example:8081/objects?k=1",
            "k5|k5",
            "../k6|../k6",
            "mailto:someone@origin.example|mailto:someone@origin.example",
    })
    void aLocationIntoTheOriginPointsAtTheCache(String location, String sent) {
        assertThat(onPath.forClient(location)).isEqualTo(sent);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "https://origin.example/k|/cache/k",
            "https://origin.example:443/k?q|/cache/k?q",
            "/img/logo.png|/cache/img/logo.png",
            "http://origin.example/k|http://origin.example/k",
            "https://origin.example:8443/k|https://origin.example:8443/k",
            "https://origin.example|https://origin.example",
            "https://origin.example/|https://origin.example/",
    })
    void anOriginAtItsRootWithTheDefaultPortWrittenOrNot(String location, String sent) {
        assertThat(atRoot.forClient(location)).isEqualTo(sent);
    }

    @Test
    void anExplicitDefaultPortInTheBaseUrlMatchesALocationWithoutOne() {
        RedirectLocations explicit = RedirectLocations.of(Optional.of("http://origin.example:80/o"), true);
        assertThat(explicit.forClient("http://origin.example/o/k")).isEqualTo("/cache/k");
        assertThat(explicit.forClient("http://origin.example:80/o/k")).isEqualTo("/cache/k");
    }

    @Test
    void offOrWithoutAnHttpOriginEveryLocationPassesAsSent() {
        String location = "http://origin.example:8081/objects/k2";
        assertThat(RedirectLocations.of(Optional.of("http://origin.example:8081/objects"), false).forClient(location)).isEqualTo(location);
        assertThat(RedirectLocations.of(Optional.empty(), true).forClient(location)).isEqualTo(location);
        assertThat(RedirectLocations.of(Optional.of(" "), true).forClient("/k")).isEqualTo("/k");
        assertThat(onPath.forClient(null)).isNull();
    }
}
