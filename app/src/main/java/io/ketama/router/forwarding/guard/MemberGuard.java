package io.ketama.router.forwarding.guard;

import io.ketama.router.forwarding.FailureKind;
import io.ketama.router.forwarding.ForwardSettings;
import io.ketama.router.forwarding.GuardCounts;
import io.ketama.router.serving.Failures;
import io.ketama.router.serving.OverloadedException;
import io.ketama.router.serving.Served;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;

/**
 * The guard of the forwards to one member: retries around a circuit breaker around a bulkhead,
 * in MicroProfile Fault Tolerance's order. A forward passes the breaker ({@link ForwardBreaker}),
 * then the bulkhead ({@link ForwardBulkhead}), then runs; its outcome goes back to the breaker;
 * a failure is retried on the same member, after {@code retryDelay}, up to {@code maxRetries}
 * times, each retry through the breaker and bulkhead again.
 *
 * <p>What a failure means here is its {@link FailureKind}. A failure that retrying cannot mend is not retried: the breaker is open, the member is busy
 * or has left or serves no keys or publishes no usable port for the transport, the two members
 * do not understand each other on the channel ({@link io.ketama.router.forwarding.ForwardRefusedException}), the member spilled
 * the key past its bound ({@link io.ketama.router.forwarding.SpilledException}: it answered, and the key goes on), this member's
 * Hazelcast is stopping, or the origin gave the member no answer (the origin is shared: asking
 * again only adds to its load). Neither a busy member, nor a missing origin answer, nor a port it
 * does not publish, nor an exchange the two members' versions could not read, is the member failing: the breaker counts them as successes. Nor is a reply
 * this member had no room for ({@link io.ketama.router.serving.NoRoomForReplyException}, an
 * {@link OverloadedException}): the member answered; this one could not hold the answer.
 *
 * <p>Why not SmallRye Fault Tolerance's guard, which did this before: per forward, its chain of
 * strategies, their completion callbacks and a hop through the Vert.x context for each completion
 * cost about a tenth of an entry member's CPU under forwarded load (perf, load-tests/RESULTS.md
 * run 21). Here a forward takes two uncontended locks and one completion callback. A retry's pause
 * is a timer on the event loop that saw the failure.
 */
public final class MemberGuard implements GuardCounts {

    private final String member;
    private final int maxRetries;
    private final long retryDelayMillis;
    private final ForwardBreaker breaker;
    private final ForwardBulkhead bulkhead;
    private final LongAdder retries = new LongAdder();
    private final LongAdder answered = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder spilled = new LongAdder();

    public MemberGuard(String member, ForwardSettings settings) {
        this.member = member;
        this.maxRetries = settings.maxRetries();
        this.retryDelayMillis = settings.retryDelay().toMillis();
        this.breaker = new ForwardBreaker(settings.breakerVolumeThreshold(), settings.breakerFailureRatio(),
                settings.breakerDelay().toNanos(), System::nanoTime);
        this.bulkhead = new ForwardBulkhead(member, settings.maxInFlight(), settings.maxWaiting());
    }

    /** The answer of {@code attempt}, made once and retried as above, or the failure of its last try. */
    public CompletionStage<Served> call(Attempt attempt) {
        Call call = new Call(attempt);
        call.attempt();
        return call.answer;
    }

    /** One forward and its retries. */
    private final class Call {
        final Attempt attempt;
        final CompletableFuture<Served> answer = new CompletableFuture<>();
        int retriesLeft = maxRetries;

        Call(Attempt attempt) {
            this.attempt = attempt;
        }

        void attempt() {
            long ticket = breaker.enter();
            if (ticket == ForwardBreaker.REFUSED) {
                end(new CircuitBreakerOpenException("circuit breaker for member " + member + " is open"));
                return;
            }
            bulkhead.run(attempt).whenComplete((served, failure) -> {
                if (failure == null) {
                    breaker.record(ticket, false);
                    answered.increment();
                    answer.complete(served);
                    return;
                }
                Throwable cause = Failures.cause(failure);
                FailureKind kind = FailureKind.of(cause);
                breaker.record(ticket, !kind.saysNothingOfTheMember());
                if (retriesLeft > 0 && !kind.retryingCannotMend()) {
                    retriesLeft--;
                    retries.increment();
                    later(this::attempt);
                } else {
                    end(cause);
                }
            });
        }

        void end(Throwable cause) {
            (FailureKind.of(cause).spills() ? spilled : failed).increment();
            answer.completeExceptionally(cause);
        }
    }

    /** Runs {@code retry} after the retry delay, on the caller's event loop where it is on one. */
    private void later(Runnable retry) {
        if (retryDelayMillis == 0) {
            retry.run();
            return;
        }
        Context context = Vertx.currentContext();
        if (context != null) {
            context.owner().setTimer(retryDelayMillis, id -> retry.run());
        } else {
            // on the JDK's delay thread itself: its default pool starts a thread per task where the
            // common pool has one thread (any 2-CPU machine)
            CompletableFuture.delayedExecutor(retryDelayMillis, TimeUnit.MILLISECONDS, Runnable::run).execute(retry);
        }
    }

    @Override
    public String member() {
        return member;
    }

    @Override
    public int inFlight() {
        return bulkhead.inFlight();
    }

    @Override
    public int waiting() {
        return bulkhead.waiting();
    }

    @Override
    public long busy() {
        return bulkhead.refused();
    }

    @Override
    public boolean breakerOpen() {
        return breaker.isOpen();
    }

    @Override
    public long breakerOpened() {
        return breaker.opened();
    }

    @Override
    public long breakerRefused() {
        return breaker.refused();
    }

    @Override
    public long retries() {
        return retries.sum();
    }

    @Override
    public long answered() {
        return answered.sum();
    }

    @Override
    public long failed() {
        return failed.sum();
    }

    @Override
    public long spilled() {
        return spilled.sum();
    }
}
