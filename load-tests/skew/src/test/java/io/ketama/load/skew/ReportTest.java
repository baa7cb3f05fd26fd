package io.ketama.load.skew;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportTest {

    private static final long[] SKEWED = {2_300, 1_300, 1_200, 1_100, 1_100, 1_000, 1_000, 1_000};
    private static final long[] EVEN_ENOUGH = {1_200, 1_200, 1_150, 1_150, 1_100, 1_100, 1_050, 1_050};

    /** A run where the defaults meet every target and the setting off misses the spread ones. */
    private static List<PhaseFigures> run() {
        List<PhaseFigures> p = new ArrayList<>();
        long[] evenCpu = {500, 500, 500, 500, 500, 500, 500, 500};
        p.add(Phases.of("service-off", "1k", "sequential", Phases.even(2_500), evenCpu, 0, Map.of("MISS", 20_000L), 20_000, 0));
        p.add(Phases.of("service-off", "1k", "uniform", Phases.even(1_000), evenCpu, 0, Map.of("HIT", 8_000L), 0, 0));
        p.add(Phases.of("service-off", "1k", "zipf-1.1", SKEWED, new long[] {900, 500, 500, 500, 500, 500, 500, 500}, 0,
                Map.of("HIT", 10_000L), 0, 0));
        p.add(Phases.of("service-on", "1k", "sequential", Phases.even(2_500), evenCpu, 0, Map.of("MISS", 20_000L), 20_000, 0));
        p.add(Phases.of("service-on", "1k", "uniform", Phases.even(1_000), new long[] {510, 510, 510, 510, 510, 510, 510, 510}, 0,
                Map.of("HIT", 8_000L), 0, 0));
        p.add(Phases.of("service-on", "1k", "zipf-1.1", EVEN_ENOUGH, new long[] {540, 540, 520, 520, 500, 500, 480, 480}, 900,
                Map.of("HIT", 7_000L, "NEAR", 2_000L, "MISS", 1_000L), 30, 400));
        p.add(Phases.of("nginx", "1k", "zipf-1.1", SKEWED, null, 0, Map.of(), 0, 0));
        p.add(Phases.of("haproxy", "1k", "zipf-1.1", new long[] {1_500, 1_400, 1_300, 1_300, 1_200, 1_200, 1_100, 1_000}, null, 0,
                Map.of(), 0, 0));
        return p;
    }

    @Test
    void judgesEveryTargetOnTheRunsOwnFigures() {
        List<Verdict> v = new Report(run(), "service-on", "service-off", 1.25, "NEAR", List.of("nginx", "haproxy")).verdicts();
        assertThat(v).extracting(Verdict::target).contains(
                "busiest member's served share ÷ mean, Zipf 1.1 (service-on, 1k)",
                "busiest member's CPU ÷ mean, Zipf 1.1 (service-on, 1k)",
                "projected capacity, Zipf 1.1 ÷ uniform (service-on, 1k)",
                "peak member load ÷ mean with bounded loads, zipf-1.1 (service-on, 1k)",
                "  … below nginx's owners' spread, zipf-1.1 (service-on, 1k)",
                "  … below haproxy's owners' spread, zipf-1.1 (service-on, 1k)",
                "origin fetches: fill + Zipf phases, bounded loads on ÷ off (service-on, 1k)",
                "uniform-key capacity, everything on ÷ off (CPU per answer, off ÷ on) (service-on, 1k)");
        assertThat(v).allSatisfy(x -> assertThat(x.met()).as(x.row()).isTrue());
        Verdict share = v.get(0);
        // 1,200 of 9,000 answers, 8 members
        assertThat(share.figure()).isCloseTo(1200.0 * 8 / 9000, within(1e-9));
        // (20,000 + 30 + 400) ÷ 20,000
        Verdict fetches = v.stream().filter(x -> x.target().startsWith("origin fetches")).findFirst().orElseThrow();
        assertThat(fetches.figure()).isCloseTo(20_430 / 20_000.0, within(1e-9));
        Verdict uniform = v.get(v.size() - 1);
        assertThat(uniform.figure()).isCloseTo(500.0 / 510, within(1e-9));
    }

    @Test
    void theSettingOffMissesTheSpreadTargetsAndSaysByHowMuch() {
        List<Verdict> v = new Report(run(), "service-off", "service-off", 1.25, "NEAR", List.of("nginx", "haproxy")).verdicts();
        Verdict share = v.get(0);
        // 2,300 × 8 / 10,000 = 1.84
        assertThat(share.figure()).isCloseTo(1.84, within(1e-9));
        assertThat(share.met()).isFalse();
        assertThat(share.outcome()).isEqualTo("MISSED by 0.59 (1.47× the limit)");
        Verdict cpu = v.get(1);
        // 900 × 8 / 4,400
        assertThat(cpu.figure()).isCloseTo(900.0 * 8 / 4400, within(1e-9));
        assertThat(cpu.met()).isFalse();
        // capacity: 10,000 / 0.9 s against 8,000 / 0.5 s
        assertThat(v.get(2).figure()).isCloseTo((10_000 / 0.9) / (8_000 / 0.5), within(1e-9));
        assertThat(v.get(2).met()).isFalse();
        // net of idle (150 ms each): 750 × 8 / (750 + 7 × 350)
        assertThat(v.get(3).figure()).isCloseTo(750.0 * 8 / (750 + 7 * 350), within(1e-9));
        assertThat(v.get(3).met()).isFalse();
    }

    @Test
    void aTargetWithoutItsPhasesIsNotMeasured() {
        List<PhaseFigures> only = List.of(Phases.of("service-on", "1k", "uniform", Phases.even(1_000), null, 0, Map.of(), 0, 0));
        List<Verdict> v = new Report(only, "service-on", "service-off", 1.25, "NEAR", List.of("nginx")).verdicts();
        assertThat(v.get(0).outcome()).isEqualTo("not measured");
        assertThat(v.get(v.size() - 1).outcome()).isEqualTo("not measured");
    }

    @Test
    void aYardstickNotRunIsNotMeasuredEither() {
        List<Verdict> v = new Report(run(), "service-on", "service-off", 1.25, "NEAR", List.of("envoy")).verdicts();
        assertThat(v).filteredOn(x -> x.target().contains("envoy")).allSatisfy(x -> assertThat(x.outcome()).isEqualTo("not measured"));
    }

    @Test
    void originFetchRatioOfZeros() {
        assertThat(Report.fetchRatio(0, 0)).isEqualTo(1.0);
        assertThat(Report.fetchRatio(5, 0)).isInfinite();
        assertThat(Report.fetchRatio(11, 10)).isCloseTo(1.1, within(1e-12));
    }

    @Test
    void theMarkdownHasEveryTable() {
        List<PhaseFigures> phases = new ArrayList<>(run());
        PhaseFigures on11 = phases.get(5);
        phases.set(5, new PhaseFigures(on11.setup(), on11.body(), on11.mix(), on11.rate(), on11.seconds(), on11.members(), on11.requests(),
                on11.ok(), on11.failures(), on11.statuses(), on11.failuresBySecond(), on11.p50Ms(), on11.p99Ms(), on11.served(),
                on11.offOwner(), on11.cache(), on11.failedOver(), on11.cpuNanos(), on11.cpuWallSeconds(), on11.originFetches(),
                on11.warmupOriginFetches(), Map.of("ketama_router_spilled_total", 900.0), on11.idleNanosPerSecond()));
        phases.add(new PhaseFigures("kill-service-on", "1k", "zipf-1.1", 800, 40, Phases.EIGHT, 32_000, 32_000, Map.of(), Map.of(200, 32_000L),
                Map.of(), 1, 5, Map.of("m0", 32_000L), Map.of(), Map.of("HIT", 32_000L), 41, Map.of(), 40, 0, 0, Map.of(), Map.of()));
        String md = new Report(phases, "service-on", "service-off", 1.25, "NEAR", List.of("nginx", "haproxy")).markdown();
        assertThat(md).contains("### service-off, 1k bodies, 8 members, 800 req/s offered")
                .contains("| zipf-1.1 | 333 | 1.00 | 4.00 | 0 | 1.84 (m0) |")
                .contains("fill before these phases: 20000 keys asked once, 20000 origin fetches, 0 failed")
                .contains("### Busiest member's served share ÷ the mean member's, every setup")
                .contains("| 1k | zipf-1.1 | 1.84 | 1.07 | 1.84 | 1.20 |")
                .contains("| o0 | o1 |")
                .contains("### kill -9 of a member under load (issue 26 item 7)")
                .contains("| kill-service-on | 1k | zipf-1.1 | 32000 | 32000 | 0 | none | none | 41 |")
                .contains("### Targets (issue 26 item 6), as ratios within this run")
                .contains("- zipf-1.1, the members' meters over the measured interval (sums): ketama_router_spilled_total 900")
                .doesNotContain("| kill-service-on | 1k | zipf-1.1 | 100.0");
    }
}
