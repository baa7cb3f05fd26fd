package io.ketama.load.skew;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PromTextTest {

    @Test
    void sumsEverySeriesOfTheMetersAskedFor() {
        String text = """
                # HELP ketama_spills_total Requests spilled
                # TYPE ketama_spills_total counter
                ketama_spills_total{member="a",ring="v1"} 3.0
                ketama_spills_total{member="b",ring="v1"} 4
                ketama_spills_totally 100
                ketama_near_hits_total 12 1700000000000
                ketama_load_ratio{member="a"} NaN
                other_meter 5
                """;
        Map<String, Double> sums = PromText.sums(text, List.of("ketama_spills_total", "ketama_near_hits_total", "ketama_load_ratio",
                "absent_total"));
        assertThat(sums).containsExactly(Map.entry("ketama_spills_total", 7.0), Map.entry("ketama_near_hits_total", 12.0),
                Map.entry("ketama_load_ratio", 0.0), Map.entry("absent_total", 0.0));
    }
}
