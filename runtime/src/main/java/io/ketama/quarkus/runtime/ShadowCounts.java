package io.ketama.quarkus.runtime;

import java.util.concurrent.atomic.LongAdder;

/**
 * The selections a member made in shadow mode, and of those the ones where the other ring chose
 * another member: cumulative since start, what a migration ramp's brake reads
 * ({@link MigrationRamp.Signals}). One per {@link ClusterRings}, counted into by the lookup that
 * made the selection, so the count stays beside the rings it is about and the lookup calls into
 * nothing that calls back.
 *
 * <p>Counting is two {@link LongAdder} increments at most: no lock and no allocation on the lookup
 * path, and no contention between the event-loop threads that select at once. A read is a sum
 * over the adders' cells, made once per ramp step (seconds apart), so it may be a moment behind
 * the counts made while it runs; the brake compares sums taken a step apart and does not need more.
 */
final class ShadowCounts {

    private final LongAdder selections = new LongAdder();
    private final LongAdder disagreements = new LongAdder();

    ShadowCounts() {
    }

    /** Counts one shadow selection, {@code disagreed} when the other ring chose another member. */
    public void count(boolean disagreed) {
        selections.increment();
        if (disagreed) {
            disagreements.increment();
        }
    }

    /** Shadow selections counted since start. */
    long selections() {
        return selections.sum();
    }

    /** Of {@link #selections()}, those where the two rings disagreed. */
    long disagreements() {
        return disagreements.sum();
    }
}
