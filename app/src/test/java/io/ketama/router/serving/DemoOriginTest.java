package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DemoOriginTest {

    private static OriginAnswer now(Origin origin, String key) throws Exception {
        return origin.fetch(key).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void contentIsAPureFunctionOfTheKeyBytes() throws Exception {
        DemoOrigin origin = new DemoOrigin(Duration.ZERO);
        OriginAnswer a = now(origin, "k?x=1");
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.body()).isEqualTo(now(origin, "k?x=1").body()).isEqualTo(DemoOrigin.contentFor("k?x=1"));
        assertThat(a.body()).isNotEqualTo(DemoOrigin.contentFor("k?x=2"));
        assertThat(DemoOrigin.contentFor("\u00ff")).contains((byte) 0xFF);
    }

    @Test
    void aDelayedAnswerHoldsNoThreadOfTheCaller() throws Exception {
        DemoOrigin origin = new DemoOrigin(Duration.ofMillis(50));
        CompletableFuture<OriginAnswer> answer = origin.fetch("slow").toCompletableFuture();
        assertThat(answer).as("returned before the delay is over").isNotDone();
        assertThat(answer.get(10, TimeUnit.SECONDS).body()).isEqualTo(DemoOrigin.contentFor("slow"));
    }

    @Test
    void aNegativeDelayIsRefused() {
        assertThatThrownBy(() -> new DemoOrigin(Duration.ofMillis(-1))).hasMessageContaining(">= 0");
    }
}
