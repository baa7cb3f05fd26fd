package io.ketama.router.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DemoOriginTest {

    @Test
    void contentIsAPureFunctionOfTheKeyBytes() {
        DemoOrigin origin = new DemoOrigin(Duration.ZERO);
        OriginAnswer a = origin.fetch("k?x=1");
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.body()).isEqualTo(origin.fetch("k?x=1").body()).isEqualTo(DemoOrigin.contentFor("k?x=1"));
        assertThat(a.body()).isNotEqualTo(DemoOrigin.contentFor("k?x=2"));
        assertThat(DemoOrigin.contentFor("\u00ff")).contains((byte) 0xFF);
    }

    @Test
    void aNegativeDelayIsRefused() {
        assertThatThrownBy(() -> new DemoOrigin(Duration.ofMillis(-1))).hasMessageContaining(">= 0");
    }
}
