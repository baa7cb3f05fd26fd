package io.ketama.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    @Test
    void smallLatenciesAreExact() {
        LatencyHistogram h = new LatencyHistogram();
        for (int ms = 1; ms <= 50; ms++) {
            h.record(ms);
        }
        assertThat(h.count()).isEqualTo(50);
        assertThat(h.percentile(50)).isEqualTo(25);
        assertThat(h.percentile(100)).isEqualTo(50);
        assertThat(h.percentile(1)).isEqualTo(1);
    }

    @Test
    void largeLatenciesAreWithinOneSixteenth() {
        for (long v : new long[] {64, 65, 100, 999, 1000, 4097, 65_535, 500_000}) {
            LatencyHistogram h = new LatencyHistogram();
            h.record(v);
            long reported = h.percentile(50);
            assertThat(reported).as("value %d", v).isGreaterThanOrEqualTo(v).isLessThanOrEqualTo(v + v / 16);
        }
    }

    @Test
    void bucketsCoverTheRangeInOrder() {
        int previous = -1;
        for (long v = 0; v <= LatencyHistogram.MAX_VALUE; v += v < 1000 ? 1 : 997) {
            int b = LatencyHistogram.bucketOf(v);
            assertThat(b).isGreaterThanOrEqualTo(previous);
            assertThat(LatencyHistogram.upperBound(b)).isGreaterThanOrEqualTo(v);
            previous = b;
        }
        assertThat(LatencyHistogram.bucketOf(-5)).isZero();
        assertThat(LatencyHistogram.bucketOf(Long.MAX_VALUE)).isEqualTo(LatencyHistogram.bucketOf(LatencyHistogram.MAX_VALUE));
    }

    @Test
    void mergesAndReportsEmpty() {
        LatencyHistogram a = new LatencyHistogram();
        LatencyHistogram b = new LatencyHistogram();
        assertThat(a.percentile(99)).isEqualTo(-1);
        a.record(10);
        b.record(30);
        b.record(30);
        a.addAll(b);
        assertThat(a.count()).isEqualTo(3);
        assertThat(a.percentile(34)).isEqualTo(30);
        assertThat(a.percentile(33)).isEqualTo(10);
        assertThatThrownBy(() -> a.percentile(0)).hasMessageContaining("above 0 and at most 100");
    }
}
