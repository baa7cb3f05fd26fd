package io.ketama.router.forwarding.guard;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.router.forwarding.MemberGoneException;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.Served;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAccumulator;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.junit.jupiter.api.Test;

/**
 * A member's bulkhead: attempts start while slots are free, then wait in a bounded queue, then are
 * refused at once; an ended attempt's slot passes to the oldest waiting one; attempts that end at
 * once drain a long queue without deepening the stack.
 */
class ForwardBulkheadTest {

    private static final Served SERVED = new Served(new OriginAnswer(200, "text/plain", new byte[] {1}), CacheStatus.HIT, "m");

    @Test
    void startsUpToTheLimitQueuesUpToTheQueueAndRefusesThePast() throws Exception {
        ForwardBulkhead bulkhead = new ForwardBulkhead("127.0.0.1:5901", 2, 1);
        List<CompletableFuture<Served>> attempts = new ArrayList<>();
        AtomicInteger started = new AtomicInteger();

        List<CompletionStage<Served>> answers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            answers.add(bulkhead.run(() -> {
                started.incrementAndGet();
                CompletableFuture<Served> attempt = new CompletableFuture<>();
                attempts.add(attempt);
                return attempt;
            }));
        }

        assertThat(started).as("two slots").hasValue(2);
        assertThat(bulkhead.inFlight()).isEqualTo(2);
        assertThat(bulkhead.waiting()).isEqualTo(1);
        assertThat(bulkhead.refused()).isEqualTo(1);
        CompletableFuture<Served> refused = answers.get(3).toCompletableFuture();
        assertThat(refused).isCompletedExceptionally();
        assertThat(refusal(refused)).isInstanceOf(BulkheadException.class)
                .hasMessage("member 127.0.0.1:5901 has 2 forwards under way and 1 waiting, the most it takes");

        attempts.get(0).complete(SERVED);
        assertThat(answers.get(0).toCompletableFuture()).isCompletedWithValue(SERVED);
        assertThat(started).as("the waiting attempt took the freed slot").hasValue(3);
        assertThat(bulkhead.inFlight()).isEqualTo(2);
        assertThat(bulkhead.waiting()).isZero();

        attempts.get(2).completeExceptionally(new IllegalStateException("boom"));
        assertThat(refusal(answers.get(2).toCompletableFuture())).isInstanceOf(IllegalStateException.class);
        attempts.get(1).complete(SERVED);
        assertThat(bulkhead.inFlight()).isZero();
        assertThat(bulkhead.waiting()).isZero();
    }

    @Test
    void aFreedSlotGoesToTheOldestWaitingAttempt() {
        ForwardBulkhead bulkhead = new ForwardBulkhead("m", 1, 3);
        CompletableFuture<Served> first = new CompletableFuture<>();
        bulkhead.run(() -> first);
        List<Integer> order = new ArrayList<>();
        List<CompletableFuture<Served>> waiting = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int n = i;
            bulkhead.run(() -> {
                order.add(n);
                CompletableFuture<Served> attempt = new CompletableFuture<>();
                waiting.add(attempt);
                return attempt;
            });
        }
        first.complete(SERVED);
        waiting.get(0).complete(SERVED);
        waiting.get(1).complete(SERVED);
        assertThat(order).containsExactly(0, 1, 2);
    }

    @Test
    void attemptsThatEndAtOnceDrainALongQueueWithoutRecursion() {
        int queued = 100_000;
        ForwardBulkhead bulkhead = new ForwardBulkhead("m", 1, queued);
        CompletableFuture<Served> holder = new CompletableFuture<>();
        bulkhead.run(() -> holder);
        List<CompletionStage<Served>> answers = new ArrayList<>(queued);
        for (int i = 0; i < queued; i++) {
            answers.add(bulkhead.run(() -> CompletableFuture.failedFuture(new MemberGoneException("gone"))));
        }
        assertThat(bulkhead.waiting()).isEqualTo(queued);

        holder.complete(SERVED); // each waiting attempt fails at once: 100,000 deep by recursion

        assertThat(answers).allMatch(a -> a.toCompletableFuture().isCompletedExceptionally());
        assertThat(bulkhead.inFlight()).isZero();
        assertThat(bulkhead.waiting()).isZero();
    }

    /**
     * Four threads send while four others end attempts: never more under way than the limit, and
     * every attempt either ends or is refused. A slot lost between a waiting attempt and an ending
     * one would leave that attempt waiting for ever, and this test waiting for its answer.
     */
    @Test
    void underConcurrentUseNoSlotIsLostAndTheLimitHolds() throws Exception {
        int limit = 4;
        ForwardBulkhead bulkhead = new ForwardBulkhead("m", limit, 8);
        ExecutorService senders = Executors.newFixedThreadPool(4);
        ExecutorService answerers = Executors.newFixedThreadPool(4);
        AtomicInteger underWay = new AtomicInteger();
        LongAccumulator most = new LongAccumulator(Math::max, 0);
        List<CompletableFuture<Served>> answers = Collections.synchronizedList(new ArrayList<>());
        try {
            List<Future<?>> sending = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                sending.add(senders.submit(() -> {
                    for (int i = 0; i < 5_000; i++) {
                        answers.add(bulkhead.run(() -> {
                            most.accumulate(underWay.incrementAndGet());
                            CompletableFuture<Served> attempt = new CompletableFuture<>();
                            answerers.execute(() -> {
                                underWay.decrementAndGet();
                                attempt.complete(SERVED);
                            });
                            return attempt;
                        }).toCompletableFuture());
                    }
                }));
            }
            for (Future<?> f : sending) {
                f.get(60, TimeUnit.SECONDS);
            }
            CompletableFuture.allOf(answers.stream().map(a -> a.exceptionally(e -> null)).toArray(CompletableFuture[]::new))
                    .get(60, TimeUnit.SECONDS);
        } finally {
            senders.shutdownNow();
            answerers.shutdownNow();
        }
        long served = answers.stream().filter(a -> !a.isCompletedExceptionally()).count();
        assertThat(served + bulkhead.refused()).isEqualTo(20_000);
        assertThat(served).as("at least those that found a slot or room in the queue").isGreaterThanOrEqualTo(limit + 8);
        assertThat(most.get()).as("attempts under way at once").isLessThanOrEqualTo(limit);
        assertThat(bulkhead.inFlight()).isZero();
        assertThat(bulkhead.waiting()).isZero();
    }

    @Test
    void anAttemptThatThrowsFreesItsSlot() {
        ForwardBulkhead bulkhead = new ForwardBulkhead("m", 1, 1);
        CompletionStage<Served> answer = bulkhead.run(() -> {
            throw new IllegalStateException("no channel");
        });
        assertThat(refusal(answer.toCompletableFuture())).isInstanceOf(IllegalStateException.class);
        assertThat(bulkhead.inFlight()).isZero();
    }

    private static Throwable refusal(CompletableFuture<Served> answer) {
        try {
            answer.get();
            throw new AssertionError("completed normally");
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
