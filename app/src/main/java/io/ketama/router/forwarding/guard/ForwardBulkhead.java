package io.ketama.router.forwarding.guard;

import io.ketama.router.serving.Served;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;

/**
 * A bound on the forwards to one member under way at once, with a short queue in front of it.
 * An attempt starts at once while fewer than {@code maxInFlight} are under way; otherwise it waits
 * in the queue while fewer than {@code maxWaiting} wait; otherwise it fails at once with
 * {@link BulkheadException} (the member is busy: the failover chain skips it). When an attempt
 * ends, its slot passes to the oldest waiting attempt, which starts on the thread that ended the
 * previous one. A waiting attempt is a queued task, never a parked thread.
 *
 * <p>At the defaults (256 under way, 32 waiting) a member that stops answering holds at most 288
 * of this member's forwards, each for at most the attempt time limit; the 289th is refused in the
 * time of one uncontended lock.
 *
 * <p>A lock guards the count and the queue: two or four event loops use a member's bulkhead, an
 * attempt takes it once to start and once to end, and nothing runs while it is held.
 */
final class ForwardBulkhead {

    private final String member;
    private final int maxInFlight;
    private final int maxWaiting;
    private final ArrayDeque<Waiting> queue = new ArrayDeque<>();
    private int inFlight; // guarded by this
    private final LongAdder refused = new LongAdder();

    ForwardBulkhead(String member, int maxInFlight, int maxWaiting) {
        this.member = member;
        this.maxInFlight = maxInFlight;
        this.maxWaiting = maxWaiting;
    }

    /** Runs {@code attempt} now, once a slot frees, or not at all (failed with {@link BulkheadException}). */
    CompletionStage<Served> run(Attempt attempt) {
        Waiting waiting = null;
        synchronized (this) {
            if (inFlight < maxInFlight) {
                inFlight++;
            } else if (queue.size() < maxWaiting) {
                waiting = new Waiting(attempt);
                queue.addLast(waiting);
            } else {
                refused.increment();
                return CompletableFuture.failedFuture(new BulkheadException("member " + member + " has " + maxInFlight
                        + " forwards under way and " + maxWaiting + " waiting, the most it takes"));
            }
        }
        if (waiting != null) {
            return waiting.answer;
        }
        CompletableFuture<Served> started = start(attempt);
        if (started.isDone()) {
            passSlot();
            return started;
        }
        return started.whenComplete((served, failure) -> passSlot());
    }

    /**
     * Gives an ended attempt's slot to the oldest waiting one, or frees it. Attempts that end at
     * once (a member that left, a closed channel) are run in this loop rather than by recursion,
     * so a long queue of them cannot overflow the stack.
     */
    private void passSlot() {
        while (true) {
            Waiting next;
            synchronized (this) {
                next = queue.pollFirst();
                if (next == null) {
                    inFlight--;
                    return;
                }
            }
            CompletableFuture<Served> started = start(next.attempt);
            if (!started.isDone()) {
                started.whenComplete((served, failure) -> {
                    passSlot();
                    complete(next.answer, served, failure);
                });
                return;
            }
            started.whenComplete((served, failure) -> complete(next.answer, served, failure)); // at once: it is done
        }
    }

    private static CompletableFuture<Served> start(Attempt attempt) {
        try {
            return attempt.start().toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static void complete(CompletableFuture<Served> answer, Served served, Throwable failure) {
        if (failure != null) {
            answer.completeExceptionally(failure);
        } else {
            answer.complete(served);
        }
    }

    /** Forwards under way now. */
    synchronized int inFlight() {
        return inFlight;
    }

    /** Forwards waiting for a slot now. */
    synchronized int waiting() {
        return queue.size();
    }

    /** Forwards refused so far because every slot was taken and the queue full. */
    long refused() {
        return refused.sum();
    }

    /** An attempt waiting for a slot, and the stage its caller holds. */
    private record Waiting(Attempt attempt, CompletableFuture<Served> answer) {
        Waiting(Attempt attempt) {
            this(attempt, new CompletableFuture<>());
        }
    }
}
