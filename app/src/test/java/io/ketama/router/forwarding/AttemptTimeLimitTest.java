package io.ketama.router.forwarding;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Address;
import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.impl.MemberImpl;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.Served;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The per-attempt time limit on a real Vert.x event loop: an attempt with no answer fails with
 * the MicroProfile timeout on that loop after the limit, and is counted; an answer in time passes
 * through unchanged, its timer cancelled, nothing counted; off the event loops the limit holds too;
 * an answer after the limit, which no one will send on, gives its body's bytes back at once.
 */
class AttemptTimeLimitTest {

    private static final Served SERVED = new Served(new OriginAnswer(200, "text/plain", new byte[] {1}), CacheStatus.HIT, "m");

    /** A member's identity, for the timeout's message (the limit needs no cluster). */
    private static final Member MEMBER = member();

    private Vertx vertx;

    private static Member member() {
        try {
            return new MemberImpl.Builder(new Address("127.0.0.1", InetAddress.getByName("127.0.0.1"), 5901))
                    .uuid(UUID.randomUUID()).build();
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @BeforeEach
    void start() {
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    }

    @AfterEach
    void stop() {
        vertx.close();
    }

    /** Runs {@code make} on an event loop and hands back what it returned. */
    private <T> T onLoop(Supplier<T> make) throws Exception {
        CompletableFuture<T> made = new CompletableFuture<>();
        vertx.getOrCreateContext().runOnContext(v -> made.complete(make.get()));
        return made.get(30, TimeUnit.SECONDS);
    }

    @Test
    void anAttemptWithNoAnswerFailsAfterTheLimitOnItsEventLoop() throws Exception {
        AttemptTimeLimit limit = new AttemptTimeLimit(Duration.ofMillis(200));
        AtomicReference<String> failedOn = new AtomicReference<>();
        long started = System.nanoTime();
        CompletionStage<Served> limited = onLoop(() -> limit.limit(new CompletableFuture<>(), MEMBER));
        CompletableFuture<Served> seen = limited.whenComplete((s, e) -> failedOn.set(Thread.currentThread().getName()))
                .toCompletableFuture();

        assertThat(seen).failsWithin(30, TimeUnit.SECONDS).withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(TimeoutException.class)
                .withMessageContaining("member 127.0.0.1:5901 did not answer a forward within 200 ms");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        assertThat(failedOn.get()).startsWith("vert.x-eventloop-thread-");
        assertThat(limit.timedOut()).isEqualTo(1);
    }

    @Test
    void anAnswerInTimePassesThroughAndCountsNothing() throws Exception {
        AttemptTimeLimit limit = new AttemptTimeLimit(Duration.ofMillis(100));
        CompletableFuture<Served> attempt = new CompletableFuture<>();
        CompletionStage<Served> limited = onLoop(() -> limit.limit(attempt, MEMBER));
        vertx.getOrCreateContext().runOnContext(v -> attempt.complete(SERVED));

        assertThat(limited.toCompletableFuture().get(30, TimeUnit.SECONDS)).isSameAs(SERVED);
        Thread.sleep(300); // past the limit: the cancelled timer must not fire
        assertThat(limit.timedOut()).isZero();

        CompletableFuture<Served> failing = new CompletableFuture<>();
        CompletionStage<Served> failed = onLoop(() -> limit.limit(failing, MEMBER));
        failing.completeExceptionally(new ForwardFailedException("gone"));
        assertThat(failed.toCompletableFuture()).failsWithin(30, TimeUnit.SECONDS).withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(ForwardFailedException.class);
        Thread.sleep(300);
        assertThat(limit.timedOut()).isZero();
    }

    @Test
    void anAnswerAfterTheLimitGivesItsBodysBytesBack() throws Exception {
        AttemptTimeLimit limit = new AttemptTimeLimit(Duration.ofMillis(50));
        BodyBudget budget = new BodyBudget(1000);
        assertThat(budget.take(300)).isTrue();
        CompletableFuture<Served> attempt = new CompletableFuture<>();
        CompletionStage<Served> limited = onLoop(() -> limit.limit(attempt, MEMBER));
        assertThat(limited.toCompletableFuture()).failsWithin(30, TimeUnit.SECONDS).withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(TimeoutException.class);

        Served late = Served.received(new OriginAnswer(200, "text/plain", new byte[300]), CacheStatus.MISS, "m", budget, 300);
        CompletableFuture<Void> completed = new CompletableFuture<>();
        vertx.getOrCreateContext().runOnContext(v -> {
            attempt.complete(late);
            completed.complete(null);
        });
        completed.get(30, TimeUnit.SECONDS);
        assertThat(budget.usedBytes()).as("dropped: no one else sends it on").isZero();
        assertThat(late.holdsBytes()).isFalse();
    }

    @Test
    void aCompletedAttemptIsReturnedAsItIs() throws Exception {
        AttemptTimeLimit limit = new AttemptTimeLimit(Duration.ofMillis(100));
        CompletableFuture<Served> done = CompletableFuture.completedFuture(SERVED);
        assertThat(onLoop(() -> limit.limit(done, MEMBER))).isSameAs(done);
    }

    @Test
    void offTheEventLoopsTheLimitHoldsToo() {
        AttemptTimeLimit limit = new AttemptTimeLimit(Duration.ofMillis(100));
        assertThat(limit.limit(new CompletableFuture<>(), MEMBER).toCompletableFuture()).failsWithin(30, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(TimeoutException.class);
        assertThat(limit.timedOut()).isEqualTo(1);
    }
}
