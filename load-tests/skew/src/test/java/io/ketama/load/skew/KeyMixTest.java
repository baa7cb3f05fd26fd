package io.ketama.load.skew;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KeyMixTest {

    @Test
    void readsTheThreeForms() {
        assertThat(KeyMix.parse("uniform")).isEqualTo(new KeyMix("uniform", 0));
        assertThat(KeyMix.parse("sequential").sequential()).isTrue();
        assertThat(KeyMix.parse("zipf-1.1").exponent()).isEqualTo(1.1);
        assertThat(KeyMix.parse("zipf-0.9").law(100).exponent()).isEqualTo(0.9);
    }

    @Test
    void refusesAnythingElseNamingTheForms() {
        for (String bad : new String[] {"zipf", "zipf-", "zipf-0", "zipf--1", "zipf-x", "zipf-11", "Uniform", ""}) {
            assertThatThrownBy(() -> KeyMix.parse(bad)).as(bad).hasMessageContaining("uniform, sequential or zipf-<s>")
                    .hasMessageContaining("'" + bad + "'");
        }
    }
}
