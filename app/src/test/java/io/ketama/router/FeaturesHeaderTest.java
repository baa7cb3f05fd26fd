package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class FeaturesHeaderTest {

    @Test
    void tagsAreTrimmedDeduplicatedAndRepeatedHeadersAddUp() {
        assertThat(FeaturesHeader.parse(List.of(" pci , ssd", "eu,pci"))).containsExactly("eu", "pci", "ssd");
    }

    @Test
    void absentOrBlankMeansNone() {
        assertThat(FeaturesHeader.parse(null)).isEmpty();
        assertThat(FeaturesHeader.parse(List.of())).isEmpty();
        assertThat(FeaturesHeader.parse(List.of("  "))).isEmpty();
    }

    @Test
    void malformedHeadersNameTheTagAndWhatIsAllowed() {
        for (String bad : new String[] {"a,,b", "a,", ",a", "x y", "a;b", "\u00fc", "-a", "a".repeat(65)}) {
            assertThatThrownBy(() -> FeaturesHeader.parse(List.of(bad)))
                    .as(bad)
                    .isInstanceOfSatisfying(ProblemException.class, e -> {
                        assertThat(e.kind()).isEqualTo(ProblemType.MALFORMED_FEATURES);
                        assertThat(e.getMessage()).startsWith("X-Ketama-Features: ").contains("allowed:");
                    });
        }
    }

    @Test
    void atMostSixteenTags() {
        StringBuilder s = new StringBuilder("t0");
        for (int i = 1; i < 16; i++) {
            s.append(",t").append(i);
        }
        assertThat(FeaturesHeader.parse(List.of(s.toString()))).hasSize(16);
        assertThatThrownBy(() -> FeaturesHeader.parse(List.of(s + ",t16"))).isInstanceOf(ProblemException.class);
    }
}
