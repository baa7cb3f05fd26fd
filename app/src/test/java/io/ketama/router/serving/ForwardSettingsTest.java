package io.ketama.router.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ForwardSettingsTest {

    private static ForwardSettings with(Duration timeout, int retries, double ratio, int candidates) {
        return new ForwardSettings(timeout, retries, Duration.ofMillis(10), 4, ratio, Duration.ofSeconds(5), candidates);
    }

    @Test
    void theDefaultsOfTheServiceAreValid() {
        assertThat(with(Duration.ofSeconds(2), 1, 0.5, 3).maxCandidates()).isEqualTo(3);
    }

    @Test
    void eachBadValueIsNamedWithItsRange() {
        assertThatThrownBy(() -> with(Duration.ZERO, 1, 0.5, 3)).hasMessageContaining("timeout must be > 0");
        assertThatThrownBy(() -> with(Duration.ofSeconds(1), -1, 0.5, 3)).hasMessageContaining("max retries must be in 0..10");
        assertThatThrownBy(() -> with(Duration.ofSeconds(1), 11, 0.5, 3)).hasMessageContaining("max retries must be in 0..10");
        assertThatThrownBy(() -> with(Duration.ofSeconds(1), 1, 0, 3)).hasMessageContaining("failure ratio must be in (0, 1]");
        assertThatThrownBy(() -> with(Duration.ofSeconds(1), 1, 1.5, 3)).hasMessageContaining("failure ratio must be in (0, 1]");
        assertThatThrownBy(() -> with(Duration.ofSeconds(1), 1, 0.5, 0)).hasMessageContaining("max candidates must be >= 1");
        assertThatThrownBy(() -> new ForwardSettings(Duration.ofSeconds(1), 1, Duration.ofMillis(10), 0, 0.5,
                Duration.ofSeconds(5), 3)).hasMessageContaining("request volume threshold must be >= 1");
    }
}
