package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PromQlNamesTest {

    @Test
    void findsTheMetricsAndNotTheFunctionsLabelsOrVariables() {
        assertThat(PromQlNames.of("sum by (instance, cache) (rate(ketama_router_requests_total{job=~\"$job\",cache=\"hit\"}[$__rate_interval]))"
                + " / ignoring(cache) group_left sum(rate(other_total{a='x{y}'}[5m] offset 1h)) > 0.01 and ketama:rec:rate5m"))
                .containsExactly("ketama:rec:rate5m", "ketama_router_requests_total", "other_total");
    }

    @Test
    void aFunctionItDoesNotKnowCountsAsAName() {
        // so that a new function shows up as a missing metric instead of hiding one
        assertThat(PromQlNames.of("frobnicate(up)")).containsExactly("frobnicate", "up");
    }

    @Test
    void commentsAreLeftOut() {
        assertThat(PromQlNames.of("# share of keys served by v2_total\nketama_selections_total")).containsExactly("ketama_selections_total");
    }
}
