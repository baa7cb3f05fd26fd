package io.ketama.quarkus.runtime;

import io.ketama.quarkus.BoundedLoadSettings;
import io.ketama.quarkus.KetamaConfigCheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarkus.runtime.configuration.ConfigurationException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** {@code quarkus.ketama.bounded-load.*}: off by default at 1.25; a factor of 1.0 or less, or past 100, stops start-up naming the key. */
class BoundedLoadSettingsTest {

    @Test
    void offByDefaultWithFactorOneAndAQuarter() {
        BoundedLoadSettings s = BoundedLoadSettings.of(KetamaConfigValidationTest.config());
        assertThat(s.enabled()).isFalse();
        assertThat(s.factor()).isEqualTo(1.25);
        assertThat(BoundedLoadSettings.of(KetamaConfigValidationTest.config("quarkus.ketama.bounded-load.enabled", "true",
                "quarkus.ketama.bounded-load.factor", "1.1"))).isEqualTo(new BoundedLoadSettings(true, 1.1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.0", "0.8", "-1", "125", "NaN"})
    void aFactorOutOfRangeIsOneProblemNamingTheKeyTheValueAndWhatIsAllowed(String factor) {
        String message = "quarkus.ketama.bounded-load.factor must be a number above 1.0 and at most 100.0, e.g. 1.25 (a node then "
                + "carries at most 1.25 x the mean load per unit of weight); was " + Double.parseDouble(factor);
        assertThat(KetamaConfigCheck.problems(KetamaConfigValidationTest.config("quarkus.ketama.bounded-load.factor", factor)))
                .containsExactly(message);
        assertThatThrownBy(() -> KetamaSettings.from(KetamaConfigValidationTest.config("quarkus.ketama.bounded-load.factor", factor)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("Invalid ketama configuration:\n - " + message);
    }
}
