package io.ketama.load.skew;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PhaseFiguresTest {

    /** The figures: of 48,000 answers one member of 8 served 23.0 % (1.84× the mean), the idlest 0.61×. */
    @Test
    void busiestAndIdlestShareOverTheMean() {
        long[] served = {11_040, 3_660, 6_000, 6_000, 6_000, 6_000, 6_000, 3_300};
        PhaseFigures p = Phases.of("service-off", "1k", "zipf-1.1", served, null, 0, Map.of("HIT", 48_000L), 0, 0);
        assertThat(p.ok()).isEqualTo(48_000);
        assertThat(p.busiest()).isEqualTo("m0");
        assertThat(p.share("m0")).isCloseTo(0.23, within(1e-9));
        assertThat(p.busiestOverMean()).isCloseTo(1.84, within(1e-9));
        assertThat(p.idlestOverMean()).isCloseTo(0.55, within(1e-9));
        assertThat(p.hasCpu()).isFalse();
        assertThat(p.answersPerSecond()).isCloseTo(1600, within(1e-9));
    }

    /** 8,000 answers; the members used 100 ms each but m3 used 400 ms: capacity 8,000 / 0.4 s = 20,000. */
    @Test
    void projectedCapacityIsAnswersOverTheBusiestMembersCpuSeconds() {
        long[] cpu = {100, 100, 100, 400, 100, 100, 100, 100};
        PhaseFigures p = Phases.of("service-off", "1k", "uniform", Phases.even(1_000), cpu, 0, Map.of(), 0, 0);
        assertThat(p.busiestCpu()).isEqualTo("m3");
        assertThat(p.projectedCapacity()).isCloseTo(20_000, within(1e-6));
        // 400 × 8 / 1,100
        assertThat(p.busiestCpuOverMean()).isCloseTo(3200.0 / 1100, within(1e-9));
        assertThat(p.cpuMicrosPerAnswer()).isCloseTo(1.1e6 / 8_000, within(1e-9));
    }

    @Test
    void nearHitsAreNotSpills() {
        PhaseFigures p = Phases.of("service-on", "1k", "zipf-1.1", Phases.even(100), null, 300, Map.of("HIT", 500L, "NEAR-HIT", 200L,
                "MISS", 100L), 0, 0);
        assertThat(p.nearHits("NEAR")).isEqualTo(200);
        assertThat(p.nearHits("near")).isEqualTo(200);
        assertThat(p.spills("NEAR")).isEqualTo(100);
    }

    @Test
    void theFileFormReadsBackTheSame() {
        PhaseFigures p = new PhaseFigures("kill-service-on", "64k", "zipf-1.3", 250.5, 40, Phases.EIGHT, 10_000, 9_990,
                Map.of("socket", 7L, "timeout", 3L), Map.of(200, 9_990L), Map.of(5L, 10L), 1.25, 9.5, Map.of("m0", 9_000L, "m1", 990L),
                Map.of("m1", 990L), Map.of("HIT", 9_990L), 12, Map.of("m0", 123_456_789L), 40.01, 3, 4,
                Map.of("ketama_spills_total", 17.5), Map.of("m0", 80_000_000L));
        assertThat(PhaseFigures.parse(p.text())).isEqualTo(p);
        assertThat(p.failed()).isEqualTo(10);
    }

    @Test
    void aFileWithoutAFigureSaysWhich() {
        assertThatThrownBy(() -> PhaseFigures.parse("setup=x\nbody=1k\n")).hasMessageContaining("no 'mix' line");
        assertThatThrownBy(() -> PhaseFigures.parse("junk\n")).hasMessageContaining("not a key=value line");
    }
}
