package io.ketama.load.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LatenciesTest {

    @Test
    void nearestRankPercentilesOverManyValues() {
        Latencies l = new Latencies();
        for (int v = 200_000; v >= 1; v--) { // more than the initial capacity, in reverse order
            l.add(v);
        }
        assertThat(l.count()).isEqualTo(200_000);
        assertThat(l.percentile(50)).isEqualTo(100_000);
        assertThat(l.percentile(99)).isEqualTo(198_000);
        assertThat(l.percentile(100)).isEqualTo(200_000);
        assertThat(l.percentile(0.0001)).isEqualTo(1);
        assertThat(l.max()).isEqualTo(200_000);
    }

    @Test
    void addingAfterReadingStillCounts() {
        Latencies l = new Latencies();
        l.add(5);
        assertThat(l.percentile(100)).isEqualTo(5);
        l.add(1);
        assertThat(l.percentile(50)).isEqualTo(1);
    }

    @Test
    void emptyAndOutOfRange() {
        Latencies l = new Latencies();
        assertThat(l.percentile(99)).isEqualTo(-1);
        assertThat(l.max()).isEqualTo(-1);
        assertThatThrownBy(() -> l.percentile(0)).hasMessageContaining("(0, 100]");
        assertThatThrownBy(() -> l.percentile(101)).hasMessageContaining("(0, 100]");
    }
}
