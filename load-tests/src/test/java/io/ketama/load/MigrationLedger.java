package io.ketama.load;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Follows every key through the migration steps, to count the keys a step moved to another
 * member. The controller calls {@link #beginStep} at each share change; the load reports every
 * answer through {@link RequestLog}. Lock-free; safe from any thread.
 *
 * <p>Per key it keeps the last step in which the key was answered. The first answer of a key in
 * step {@code i} is then: cold (never answered before), carried (answered in step {@code i−1},
 * so cached at its step-{@code i−1} owner: a miss means the key moved), or stale (last answered
 * before {@code i−1}, not used for the prediction because it may have moved in an earlier step).
 *
 * <p>A key is <em>tainted</em> once any request for it failed, bypassed the caches or was served
 * after a cluster-side failover: the failover member may then hold a second copy, so a later
 * move to that member would hit and hide the move. Tainted keys are left out of the carried and
 * moved counts (and counted apart), so a disturbed warm-up does not bias the comparison.
 */
final class MigrationLedger implements RequestLog {

    private static final int CARRIED = 0;
    private static final int MOVED = 1;
    private static final int COLD = 2;
    private static final int REPEAT_MISSES = 3;
    private static final int TAINTED_CARRIED = 4;
    private static final int FIELDS = 5;

    private final List<Integer> shares;
    private final AtomicIntegerArray lastStep;
    private final AtomicIntegerArray tainted;
    private final AtomicLongArray counts;
    private final long[] startMillis;
    private final ShadowCounters[] counters;
    private volatile int current = -1;
    /** Set by {@link #finish}: answers after the last step (the load's slack) are not counted. */
    private volatile boolean finished;

    /**
     * @param shares   v2 share of each step (step 0 is the warm-up)
     * @param keyCount highest key rank that will be reported
     */
    MigrationLedger(List<Integer> shares, int keyCount) {
        this.shares = List.copyOf(shares);
        this.lastStep = new AtomicIntegerArray(keyCount + 1);
        this.tainted = new AtomicIntegerArray(keyCount + 1);
        for (int i = 0; i <= keyCount; i++) {
            lastStep.set(i, -1);
        }
        this.counts = new AtomicLongArray(shares.size() * FIELDS);
        this.startMillis = new long[shares.size() + 1];
        this.counters = new ShadowCounters[shares.size() + 1];
    }

    /**
     * Starts step {@code step} at {@code epochMillis}; {@code atStart} are the cluster's shadow
     * counters read just before (they close the previous step). Steps must be begun in order.
     */
    synchronized void beginStep(int step, long epochMillis, ShadowCounters atStart) {
        if (step != current + 1 || step >= shares.size()) {
            throw new IllegalStateException("step " + step + " begun after step " + current + " of " + shares.size());
        }
        startMillis[step] = epochMillis;
        counters[step] = atStart;
        current = step;
    }

    /** Ends the last step at {@code epochMillis} with the final counters. */
    synchronized void finish(long epochMillis, ShadowCounters atEnd) {
        startMillis[shares.size()] = epochMillis;
        counters[shares.size()] = atEnd;
        finished = true;
    }

    /** The step under way, -1 before the first. */
    int currentStep() {
        return current;
    }

    @Override
    public void finished(long epochMillis, int rank, Outcome outcome, long latencyMillis, boolean servedByV2, int failovers) {
        if (rank < 0 || rank >= lastStep.length()) {
            return;
        }
        if (outcome == Outcome.ERROR || outcome == Outcome.BYPASS || failovers > 0) {
            tainted.set(rank, 1);
        }
        int step = current;
        if (step < 0 || finished || outcome == Outcome.ERROR || outcome == Outcome.BYPASS) {
            return;   // errors and bypasses cache nothing; answers outside the steps are not stepped
        }
        boolean miss = outcome == Outcome.MISS;
        int previous;
        do {
            previous = lastStep.get(rank);
            if (previous >= step) {
                break;
            }
        } while (!lastStep.compareAndSet(rank, previous, step));
        int base = step * FIELDS;
        if (previous == -1) {
            counts.incrementAndGet(base + COLD);
        } else if (previous == step - 1) {
            if (tainted.get(rank) != 0) {
                counts.incrementAndGet(base + TAINTED_CARRIED);
            } else {
                counts.incrementAndGet(base + CARRIED);
                if (miss) {
                    counts.incrementAndGet(base + MOVED);
                }
            }
        } else if (previous >= step && miss) {
            counts.incrementAndGet(base + REPEAT_MISSES);
        }
    }

    @Override
    public void attemptFailed(long epochMillis, int port, String reason) {
        // Failed attempts are the timeline's business; a failure caches nothing.
    }

    /** One result per step begun, with the timeline's figures for the step's window. */
    synchronized List<StepResult> results(Timeline timeline, int edgeSeconds) {
        List<StepResult> out = new ArrayList<>();
        for (int step = 0; step <= current; step++) {
            int start = timeline.secondOf(startMillis[step]);
            long endMillis = startMillis[step + 1] != 0 ? startMillis[step + 1] : System.currentTimeMillis();
            int end = Math.max(start + 1, timeline.secondOf(endMillis));
            ShadowCounters during = counters[step + 1] == null ? ShadowCounters.UNKNOWN : counters[step + 1].since(counters[step]);
            double previousRate = Double.NaN;
            double before = Double.NaN;
            if (step > 0) {
                ShadowCounters previous = counters[step].since(counters[step - 1]);
                previousRate = previous.rate();
                before = timeline.window(start - edgeSeconds, start).hitRatio();
            }
            int base = step * FIELDS;
            out.add(new StepResult(step, shares.get(step), shares.get(Math.max(0, step - 1)), start, end,
                    timeline.window(start, end), before, timeline.window(start, Math.min(end, start + edgeSeconds)).hitRatio(),
                    during, previousRate, counts.get(base + CARRIED), counts.get(base + MOVED),
                    counts.get(base + COLD), counts.get(base + REPEAT_MISSES), counts.get(base + TAINTED_CARRIED)));
        }
        return out;
    }
}
