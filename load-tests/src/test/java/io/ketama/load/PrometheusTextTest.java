package io.ketama.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    private static final String TEXT = """
            # HELP ketama_selections_total Keys routed
            # TYPE ketama_selections_total counter
            ketama_selections_total{ring="v1",member="127.0.0.1:5701"} 120.0
            ketama_selections_total{ring="v2",member="a}b \\"quoted\\""} 30.0
            ketama_selections_created{ring="v1"} 1.7E9
            ketama_shadow_disagreements_total 45.0 1733000000000
            ketama_selections_per_second 99
            jvm_memory_used_bytes{area="heap"} 1.0E7
            """;

    @Test
    void sumsEveryLabelledSeriesWithOrWithoutTotal() {
        assertThat(PrometheusText.sum(TEXT, "ketama_selections")).isEqualTo(150.0);
        assertThat(PrometheusText.sum(TEXT, "ketama_selections_total")).isEqualTo(150.0);
        assertThat(PrometheusText.sum(TEXT, "ketama_shadow_disagreements")).isEqualTo(45.0);
    }

    @Test
    void takesTheFirstMeterPresent() {
        assertThat(PrometheusText.sumFirstPresent(TEXT, java.util.List.of("ketama_shadow_selections", "ketama_selections")))
                .isEqualTo(150.0);
        assertThat(PrometheusText.sumFirstPresent(TEXT, java.util.List.of("ketama_shadow_disagreements", "ketama_selections")))
                .isEqualTo(45.0);
        assertThat(PrometheusText.sumFirstPresent(TEXT, java.util.List.of("x", "y"))).isNaN();
    }

    @Test
    void aMissingMeterIsNaNNotZero() {
        assertThat(PrometheusText.sum(TEXT, "ketama_nothing")).isNaN();
        assertThat(PrometheusText.sum("", "ketama_selections")).isNaN();
        assertThat(PrometheusText.sum("ketama_selections_total{ring=\"v1\" 3", "ketama_selections")).isNaN();
    }
}
