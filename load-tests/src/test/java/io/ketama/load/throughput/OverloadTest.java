package io.ketama.load.throughput;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OverloadTest {

    private static PhaseResult result(String name, double seconds, long ok, long p99Millis) {
        Latencies latencies = new Latencies();
        for (int i = 0; i < 100; i++) {
            latencies.add(Duration.ofMillis(i < 98 ? 1 : p99Millis).toNanos()); // nearest rank 99 of 100 is the 99th value
        }
        Phase phase = name.startsWith("peak") ? Phase.closed(name, 32, Duration.ofSeconds((long) seconds))
                : Phase.open(name, 1000, Duration.ofSeconds((long) seconds));
        return new PhaseResult(phase, seconds, ok, ok, ok, Map.of(200, ok), 0, 0, latencies, latencies, new Latencies(), 0, 0);
    }

    @Test
    void theVerdictHoldsOnlyWhenGoodputAndP99BothHold() {
        PhaseResult peak = result("peak-c32", 10, 10_000, 5);
        PhaseResult half = result("half", 10, 5_000, 4);
        assertThat(Overload.verdict(peak, half, result("double", 10, 8_000, 20)))
                .contains("goodput_ratio=0.80 (target >= 0.8: met)", "p99_ratio=5.00 (target <= 5: met)");
        assertThat(Overload.verdict(peak, half, result("double", 10, 7_900, 21)))
                .contains("goodput_ratio=0.79 (target >= 0.8: MISSED)", "p99_ratio=5.25 (target <= 5: MISSED)");
    }

    @Test
    void spreadKeepsEveryRequestSlot() {
        assertThat(List.of(LoadEngine.spread(2, 3)[0], LoadEngine.spread(2, 3)[1], LoadEngine.spread(2, 3)[2]))
                .containsExactly(1, 1, 0);
    }

    @Test
    void theOverloadRateIsTwiceThePeakUnlessFixed() {
        assertThat(Overload.Settings.of(new String[] {"--targets=127.0.0.1:1"}).doubleRate()).isZero();
        assertThat(Overload.Settings.of(new String[] {"--targets=127.0.0.1:1", "--double-rate=40000"}).doubleRate()).isEqualTo(40_000);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> Overload.Settings.of(new String[] {"--targets=127.0.0.1:1", "--double-rate=-1"}))
                .hasMessageContaining("double-rate");
    }
}
