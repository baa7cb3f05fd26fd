package io.ketama.router.forwarding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ketama.router.forwarding.guard.MemberGuard;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ForwardSettingsTest {

    private static ForwardSettings with(Duration timeout, int retries, double ratio, int candidates) {
        return new ForwardSettings(timeout, retries, Duration.ofMillis(10), 4, ratio, Duration.ofSeconds(5), candidates, 256, 32);
    }

    private static ForwardSettings bulkhead(int maxInFlight, int maxWaiting) {
        return new ForwardSettings(Duration.ofSeconds(1), 1, Duration.ofMillis(10), 4, 0.5, Duration.ofSeconds(5), 3,
                maxInFlight, maxWaiting);
    }

    @Test
    void theDefaultsOfTheServiceAreValid() {
        assertThat(with(Duration.ofSeconds(2), 1, 0.5, 3).maxCandidates()).isEqualTo(3);
    }

    @Test
    void eachBadValueIsNamedWithItsKeyAndRange() {
        assertThatThrownBy(() -> with(Duration.ZERO, 1, 0.5, 3)).hasMessageStartingWith(".timeout:")
                .hasMessageContaining("timeout must be > 0");
        assertThatThrownBy(() -> with(Duration.ofSeconds(1), -1, 0.5, 3)).hasMessageContaining("max retries must be in 0..10");
        assertThatThrownBy(() -> with(Duration.ofSeconds(1), 11, 0.5, 3)).hasMessageStartingWith(".max-retries:")
                .hasMessageContaining("max retries must be in 0..10");
        assertThatThrownBy(() -> with(Duration.ofSeconds(1), 1, 0, 3)).hasMessageContaining("failure ratio must be in (0, 1]");
        assertThatThrownBy(() -> with(Duration.ofSeconds(1), 1, 1.5, 3)).hasMessageContaining("failure ratio must be in (0, 1]");
        assertThatThrownBy(() -> with(Duration.ofSeconds(1), 1, 0.5, 0)).hasMessageContaining("max candidates must be >= 1");
        assertThatThrownBy(() -> new ForwardSettings(Duration.ofSeconds(1), 1, Duration.ofMillis(10), 0, 0.5,
                Duration.ofSeconds(5), 3, 256, 32)).hasMessageContaining("request volume threshold must be in 1..100000");
        assertThatThrownBy(() -> bulkhead(0, 32)).hasMessageStartingWith(".bulkhead.max-in-flight:")
                .hasMessageContaining("1..100000");
        assertThatThrownBy(() -> bulkhead(256, 0)).hasMessageStartingWith(".bulkhead.max-waiting:")
                .hasMessageContaining("1..100000");
    }

    /**
     * The breaker keeps one entry per forward of its window, made with the first forward to each
     * member: a window the settings accepted but no guard can hold would fail every forward instead
     * of the start-up (Integer.MAX_VALUE: "Requested array size exceeds VM limit").
     */
    @Test
    void aBreakerWindowBeyondWhatAGuardCanHoldIsRefusedAtStartUp() {
        assertThatThrownBy(() -> new ForwardSettings(Duration.ofSeconds(1), 1, Duration.ofMillis(10), Integer.MAX_VALUE, 0.5,
                Duration.ofSeconds(5), 3, 256, 32)).hasMessageStartingWith(".breaker.request-volume-threshold:")
                .hasMessageContaining("1..100000");
        ForwardSettings largest = new ForwardSettings(Duration.ofSeconds(1), 1, Duration.ofMillis(10), 100_000, 0.5,
                Duration.ofSeconds(5), 3, 256, 32);
        assertThat(new MemberGuard("m", largest).breakerOpen()).isFalse();
    }
}
