package io.ketama.load.skew;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SkewBenchTest {

    @Test
    void theReportReadsEveryPhaseFileAndTheIdleMeasuredAfterThePhases(@TempDir Path dir) throws Exception {
        long[] cpu = {500, 500, 500, 500, 500, 500, 500, 500};
        Files.writeString(dir.resolve("01-service-on-1k-uniform.phase"),
                Phases.of("service-on", "1k", "uniform", Phases.even(1_000), cpu, 0, Map.of("HIT", 8_000L), 0, 0).text());
        Files.writeString(dir.resolve("02-service-on-1k-zipf-1.1.phase"), Phases.of("service-on", "1k", "zipf-1.1",
                new long[] {2_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000}, new long[] {700, 500, 500, 500, 500, 500, 500, 500},
                0, Map.of("HIT", 9_000L), 0, 0).text());
        // 10 ms of CPU a second idle, 300 ms over the 30 s interval: net 400 against 200
        Files.writeString(dir.resolve("idle-service-on.pairs"), "m0=10000000,m1=10000000,m2=10000000,m3=10000000,m4=10000000,"
                + "m5=10000000,m6=10000000,m7=10000000\n");
        Files.writeString(dir.resolve("notes.txt"), "not a phase\n");
        String md = SkewBench.report(new Options(List.of("--dir=" + dir), Set.of("dir", "defaults", "off", "factor", "near", "yardsticks")));
        assertThat(md).contains("### service-on, 1k bodies, 8 members")
                .contains("| busiest member's CPU ÷ mean, Zipf 1.1 (service-on, 1k) | 1.33 |")
                // raw: 700 × 8 / 4,200; net: 400 × 8 / (400 + 7 × 200)
                .contains("|   … net of idle CPU (service-on, 1k) | 1.78 |");
    }

    @Test
    void badOptionsNameThemselves() {
        assertThatThrownBy(() -> new Options(List.of("--rate"), Set.of("rate"))).hasMessageContaining("--name=value");
        assertThatThrownBy(() -> new Options(List.of("--speed=1"), Set.of("rate"))).hasMessageContaining("unknown option --speed");
        assertThatThrownBy(() -> new Options(List.of("--rate=fast"), Set.of("rate")).number("rate", 1, 0, 10))
                .hasMessageContaining("--rate must be a number above 0.0 and at most 10.0, was 'fast'");
        assertThatThrownBy(() -> SkewBench.idlePairs("m0", "--idle")).hasMessageContaining("'m0' is not one");
        assertThat(SkewBench.idlePairs("m0=5,m1=6", "x")).containsExactly(Map.entry("m0", 5L), Map.entry("m1", 6L));
    }
}
