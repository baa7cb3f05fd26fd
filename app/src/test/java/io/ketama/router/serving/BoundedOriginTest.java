package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BoundedOriginTest {

    @Test
    void pastTheLimitAFetchIsRefusedAtOnceAndASlotFreesWhenOneEnds() throws Exception {
        List<CompletableFuture<OriginAnswer>> held = new ArrayList<>();
        BoundedOrigin origin = new BoundedOrigin(key -> {
            CompletableFuture<OriginAnswer> f = new CompletableFuture<>();
            held.add(f);
            return f;
        }, 2);
        CompletableFuture<OriginAnswer> first = origin.fetch("a").toCompletableFuture();
        origin.fetch("b");
        assertThat(origin.inFlight()).isEqualTo(2);

        assertThat(origin.fetch("c").toCompletableFuture()).failsWithin(1, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(OverloadedException.class)
                .withMessageContaining("2 origin fetches under way");
        assertThat(held).as("the refused fetch never reached the origin").hasSize(2);

        held.get(0).complete(new OriginAnswer(200, "text/plain", new byte[1]));
        assertThat(first).isCompleted();
        assertThat(origin.inFlight()).isEqualTo(1);
        origin.fetch("d");
        assertThat(held).hasSize(3);
    }

    @Test
    void aFailedOrThrowingFetchFreesItsSlot() {
        BoundedOrigin failing = new BoundedOrigin(key -> CompletableFuture.failedFuture(new OriginUnavailableException("x", null)), 1);
        failing.fetch("a");
        assertThat(failing.inFlight()).isZero();
        BoundedOrigin throwing = new BoundedOrigin(key -> {
            throw new OriginUnavailableException("y", null);
        }, 1);
        assertThat(throwing.fetch("a").toCompletableFuture()).isCompletedExceptionally();
        assertThat(throwing.inFlight()).isZero();
    }

    @Test
    void aLimitBelowOneIsRefused() {
        assertThatThrownBy(() -> new BoundedOrigin(key -> null, 0)).hasMessageContaining("max in flight must be >= 1");
    }
}
