package io.ketama.router.forwarding.guard;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.router.forwarding.ForwardSettings;
import io.ketama.router.forwarding.MemberGoneException;
import io.ketama.router.forwarding.NotServingException;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.OriginUnavailableException;
import io.ketama.router.serving.Served;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A member's guard: a failure is retried up to the limit and the last one is what the caller
 * sees; failures that retrying cannot mend are not retried, and those that say nothing of the
 * member leave its breaker closed; enough failures open the breaker, which then refuses without
 * running the attempt; a retry waits its delay on the event loop that saw the failure.
 */
class MemberGuardTest {

    private static final Served SERVED = new Served(new OriginAnswer(200, "text/plain", new byte[] {1}), CacheStatus.HIT, "m");

    private static ForwardSettings settings(int maxRetries, Duration retryDelay) {
        return new ForwardSettings(Duration.ofSeconds(2), maxRetries, retryDelay, 4, 0.5, Duration.ofSeconds(30), 3, 8, 2);
    }

    @Test
    void retriesAFailureUpToTheLimitAndReportsTheLast() {
        MemberGuard guard = new MemberGuard("m", settings(2, Duration.ZERO));
        AtomicInteger attempts = new AtomicInteger();
        CompletionStage<Served> answer = guard.call(() -> CompletableFuture.failedFuture(
                new TimeoutException("attempt " + attempts.incrementAndGet())));
        assertThat(failure(answer)).isInstanceOf(TimeoutException.class).hasMessage("attempt 3");
        assertThat(guard.retries()).isEqualTo(2);
        assertThat(guard.failed()).isEqualTo(1);
        assertThat(guard.answered()).isZero();
    }

    @Test
    void aRetryThatSucceedsIsTheAnswer() throws Exception {
        MemberGuard guard = new MemberGuard("m", settings(1, Duration.ofMillis(20)));
        AtomicInteger attempts = new AtomicInteger();
        CompletionStage<Served> answer = guard.call(() -> attempts.incrementAndGet() == 1
                ? CompletableFuture.failedFuture(new IllegalStateException("channel closed"))
                : CompletableFuture.completedFuture(SERVED));
        assertThat(answer.toCompletableFuture().get(10, TimeUnit.SECONDS)).isSameAs(SERVED);
        assertThat(attempts).hasValue(2);
        assertThat(guard.answered()).isEqualTo(1);
        assertThat(guard.retries()).isEqualTo(1);
    }

    @Test
    void failuresRetryingCannotMendAreNotRetriedAndABusyMemberOrAMissingOriginLeavesTheBreakerClosed() {
        List<Supplier<Throwable>> unmendable = List.of(
                () -> new BulkheadException("busy"),
                () -> new OriginUnavailableException("no answer", null),
                () -> new MemberGoneException("gone"),
                () -> new NotServingException("not serving"));
        for (Supplier<Throwable> cause : unmendable) {
            MemberGuard guard = new MemberGuard("m", settings(3, Duration.ZERO));
            AtomicInteger attempts = new AtomicInteger();
            Throwable thrown = cause.get();
            CompletionStage<Served> answer = guard.call(() -> {
                attempts.incrementAndGet();
                return CompletableFuture.failedFuture(thrown);
            });
            assertThat(failure(answer)).isSameAs(thrown);
            assertThat(attempts).as(thrown.toString()).hasValue(1);
            assertThat(guard.retries()).isZero();
        }

        MemberGuard busyOnly = new MemberGuard("m", settings(3, Duration.ZERO));
        for (int i = 0; i < 20; i++) {
            Throwable cause = i % 2 == 0 ? new BulkheadException("busy") : new OriginUnavailableException("no answer", null);
            failure(busyOnly.call(() -> CompletableFuture.failedFuture(cause)));
        }
        assertThat(busyOnly.breakerOpen()).as("a busy member and a missing origin answer are not its fault").isFalse();
    }

    @Test
    void anOpenBreakerRefusesWithoutRunningTheAttempt() {
        MemberGuard guard = new MemberGuard("127.0.0.1:5902", settings(0, Duration.ZERO));
        for (int i = 0; i < 4; i++) {
            failure(guard.call(() -> CompletableFuture.failedFuture(new TimeoutException("slow"))));
        }
        assertThat(guard.breakerOpen()).isTrue();
        assertThat(guard.breakerOpened()).isEqualTo(1);

        AtomicInteger attempts = new AtomicInteger();
        CompletionStage<Served> refused = guard.call(() -> {
            attempts.incrementAndGet();
            return CompletableFuture.completedFuture(SERVED);
        });
        assertThat(failure(refused)).isInstanceOf(CircuitBreakerOpenException.class)
                .hasMessage("circuit breaker for member 127.0.0.1:5902 is open");
        assertThat(attempts).hasValue(0);
        assertThat(guard.breakerRefused()).isEqualTo(1);
        assertThat(guard.failed()).isEqualTo(5);
    }

    @Test
    void aRetryWaitsItsDelayOnTheEventLoopThatSawTheFailure() throws Exception {
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        try {
            MemberGuard guard = new MemberGuard("m", settings(1, Duration.ofMillis(100)));
            List<String> threads = new ArrayList<>();
            List<Long> startedAt = new ArrayList<>();
            CompletableFuture<CompletionStage<Served>> answer = new CompletableFuture<>();
            vertx.runOnContext(v -> answer.complete(guard.call(() -> {
                threads.add(Thread.currentThread().getName());
                startedAt.add(System.nanoTime());
                CompletableFuture<Served> attempt = new CompletableFuture<>();
                if (threads.size() == 1) {
                    // fails later, on the loop, as a transport's answer would
                    vertx.setTimer(10, id -> attempt.completeExceptionally(new IllegalStateException("reset")));
                } else {
                    attempt.complete(SERVED);
                }
                return attempt;
            })));
            assertThat(answer.get(10, TimeUnit.SECONDS).toCompletableFuture().get(10, TimeUnit.SECONDS)).isSameAs(SERVED);
            assertThat(threads).hasSize(2).allMatch(name -> name.startsWith("vert.x-eventloop-thread-0"));
            assertThat(startedAt.get(1) - startedAt.get(0)).as("the first failed after 10 ms, then the delay of 100 ms")
                    .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(110));
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    private static Throwable failure(CompletionStage<Served> answer) {
        try {
            answer.toCompletableFuture().get(10, TimeUnit.SECONDS);
            throw new AssertionError("completed normally");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException | java.util.concurrent.TimeoutException e) {
            throw new AssertionError(e);
        }
    }
}
