package io.ketama.router.forwarding;

import com.hazelcast.cluster.Member;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.Served;
import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

/**
 * The time limit of one forward attempt, kept by the event loop that made the forward: a task in
 * its own timer queue, cancelled when the answer comes. Past the limit the attempt fails with the
 * MicroProfile {@link TimeoutException}, which the guard's retry and circuit breaker and the
 * failover chain act on as on any failed attempt.
 *
 * <p>Why not SmallRye Fault Tolerance's timeout: its timer thread is woken on every schedule
 * ({@code ThreadTimer.schedule} unparks it each time, 6.10.1), so every forward cost a futex wake
 * and a context switch on a core the event loops need: about a tenth of a forwarding member's CPU
 * (load-tests/RESULTS.md, run 18). Here a forward costs an insertion into and a removal from the
 * loop's own queue, and no other thread runs.
 *
 * <p>It limits the attempt on the transport, from the moment the guard's bulkhead lets it go:
 * a forward that waits for a bulkhead slot waits for attempts that each end within this limit.
 *
 * <p>An answer that comes after the limit is dropped here, and the bytes its body holds in the
 * member's budget are released here ({@link Served#release}): no one else will send it on.
 */
final class AttemptTimeLimit {

    private final long millis;
    private final LongAdder timedOut = new LongAdder();

    AttemptTimeLimit(Duration limit) {
        this.millis = limit.toMillis();
    }

    /** {@code attempt}, failed with a {@link TimeoutException} if it has not completed within the limit. */
    CompletionStage<Served> limit(CompletionStage<Served> attempt, Member target) {
        CompletableFuture<Served> answer = attempt.toCompletableFuture();
        if (answer.isDone()) {
            return answer;
        }
        CompletableFuture<Served> limited = new CompletableFuture<>();
        Context context = Vertx.currentContext();
        Runnable expire = () -> {
            // counted before the failure is seen, so whoever sees it also sees the count
            timedOut.increment();
            if (!limited.completeExceptionally(new TimeoutException("member " + Members.address(target)
                    + " did not answer a forward within " + millis + " ms"))) {
                timedOut.decrement(); // the answer came first
            }
        };
        if (context instanceof ContextInternal loop && context.isEventLoopContext() && Context.isOnEventLoopThread()) {
            ScheduledFuture<?> timer = loop.nettyEventLoop().schedule(expire, millis, TimeUnit.MILLISECONDS);
            answer.whenComplete((served, failure) -> {
                timer.cancel(false);
                complete(limited, served, failure);
            });
        } else {
            // off the event loops (a test, a retry after a failure seen off them): on the JDK's delay
            // thread itself, as its default pool starts a thread per task where the common pool has
            // one thread (any 2-CPU machine)
            CompletableFuture.delayedExecutor(millis, TimeUnit.MILLISECONDS, Runnable::run).execute(expire);
            answer.whenComplete((served, failure) -> complete(limited, served, failure));
        }
        return limited;
    }

    private static void complete(CompletableFuture<Served> limited, Served served, Throwable failure) {
        if (failure != null) {
            limited.completeExceptionally(failure);
        } else if (!limited.complete(served)) {
            served.release(); // answered after the limit: no one sends it on, so its body's bytes go back now
        }
    }

    /** The limit, ms. */
    long millis() {
        return millis;
    }

    /** Attempts that ran out of time so far. */
    long timedOut() {
        return timedOut.sum();
    }
}
