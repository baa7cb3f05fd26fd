package io.ketama.router.forwarding.guard;

import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * One member's circuit breaker, with MicroProfile Fault Tolerance's states and counting.
 *
 * <p><b>Closed</b>: forwards pass; the outcomes of the last {@code window} of them are kept, and
 * once the window is full and at least {@code ceil(failureRatio × window)} of them failed, the
 * breaker opens. At the defaults (window 4, ratio 0.5) two failures among the last four forwards
 * open it. <b>Open</b>: every forward is refused at once (the failover chain tries the next
 * candidate) until {@code delay} has passed since it opened; then the next forward is a trial
 * (<b>half-open</b>) and others are refused while it runs. The trial's success closes the breaker
 * with an empty window; its failure opens it for another {@code delay}.
 *
 * <p>An outcome counts only in the state its forward started in: a slow answer from before the
 * breaker opened neither closes it nor counts against the next window. Outcomes that say nothing
 * about the member (a busy member, an origin without an answer) are recorded as successes, as
 * MicroProfile's {@code skipOn} does.
 */
final class ForwardBreaker {

    /** What {@link #enter} returns when the breaker refuses. */
    static final long REFUSED = -1;

    private final boolean[] window; // true = failed; guarded by this
    private final int failuresToOpen;
    private final long delayNanos;
    private final LongSupplier nanoTime;
    private int next; // guarded by this
    private int recorded; // guarded by this
    private int failures; // guarded by this
    private State state = State.CLOSED; // guarded by this
    /** Counts state changes: a forward's outcome counts only if none happened since it started. */
    private long epoch; // guarded by this
    private long openedAt; // guarded by this
    private final LongAdder opened = new LongAdder();
    private final LongAdder refused = new LongAdder();

    private enum State { CLOSED, OPEN, HALF_OPEN }

    ForwardBreaker(int window, double failureRatio, long delayNanos, LongSupplier nanoTime) {
        this.window = new boolean[window];
        this.failuresToOpen = Math.max(1, (int) Math.ceil(failureRatio * window));
        this.delayNanos = delayNanos;
        this.nanoTime = nanoTime;
    }

    /** @return a ticket to hand to {@link #record} with the forward's outcome, or {@link #REFUSED} */
    synchronized long enter() {
        switch (state) {
            case CLOSED:
                return epoch;
            case OPEN:
                if (nanoTime.getAsLong() - openedAt >= delayNanos) {
                    state = State.HALF_OPEN;
                    return ++epoch; // the trial
                }
                break;
            default: // HALF_OPEN: the trial is under way
                break;
        }
        refused.increment();
        return REFUSED;
    }

    /** Records the outcome of a forward that {@link #enter} let through with {@code ticket}. */
    synchronized void record(long ticket, boolean failed) {
        if (ticket != epoch) {
            return;
        }
        if (state == State.HALF_OPEN) {
            if (failed) {
                open();
            } else {
                close();
            }
            return;
        }
        if (window[next]) {
            failures--;
        }
        window[next] = failed;
        if (failed) {
            failures++;
        }
        next = (next + 1) % window.length;
        recorded = Math.min(recorded + 1, window.length);
        if (recorded == window.length && failures >= failuresToOpen) {
            open();
        }
    }

    private void open() {
        state = State.OPEN;
        openedAt = nanoTime.getAsLong();
        epoch++;
        opened.increment();
    }

    private void close() {
        state = State.CLOSED;
        epoch++;
        Arrays.fill(window, false);
        next = 0;
        recorded = 0;
        failures = 0;
    }

    /** Whether forwards are refused now (open, or half-open with its trial under way). */
    synchronized boolean isOpen() {
        return state != State.CLOSED;
    }

    /** Times it opened so far. */
    long opened() {
        return opened.sum();
    }

    /** Forwards it refused so far. */
    long refused() {
        return refused.sum();
    }
}
