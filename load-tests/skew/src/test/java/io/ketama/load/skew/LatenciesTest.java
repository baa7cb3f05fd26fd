package io.ketama.load.skew;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LatenciesTest {

    @Test
    void percentilesAreTheValuesAtTheirRank() {
        Latencies l = new Latencies();
        for (int i = 1000; i >= 1; i--) {
            l.add(i);
        }
        assertThat(l.count()).isEqualTo(1000);
        assertThat(l.percentile(50)).isEqualTo(500);
        assertThat(l.percentile(99)).isEqualTo(990);
        assertThat(l.percentile(99.9)).isEqualTo(999);
        assertThat(l.percentile(100)).isEqualTo(1000);
        assertThat(l.percentile(0.01)).isEqualTo(1);
    }

    @Test
    void emptyIsZeroAndBadPercentilesAreRefused() {
        assertThat(new Latencies().percentile(99)).isZero();
        assertThatThrownBy(() -> new Latencies().percentile(0)).hasMessageContaining("above 0 and at most 100");
        assertThatThrownBy(() -> new Latencies().percentile(101)).hasMessageContaining("was 101");
    }
}
