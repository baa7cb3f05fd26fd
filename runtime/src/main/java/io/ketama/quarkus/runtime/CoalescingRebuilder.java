package io.ketama.quarkus.runtime;

import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Runs rebuilds on one background thread, one at a time, folding requests that arrive within the
 * delay of the first pending one into a single rebuild. The rebuild itself reads the full current
 * state, so a folded request loses nothing but its reason text, which is passed on.
 */
final class CoalescingRebuilder implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(CoalescingRebuilder.class);
    private static final int MAX_REASONS = 8;

    private final Duration delay;
    private final Consumer<String> rebuild;
    private final ScheduledExecutorService executor;
    private final List<String> reasons = new ArrayList<>();
    private int foldedAway;
    private boolean scheduled;

    CoalescingRebuilder(Duration delay, Consumer<String> rebuild) {
        this.delay = delay;
        this.rebuild = rebuild;
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ketama-rebuild");
            t.setDaemon(true);
            return t;
        });
    }

    /** Asks for a rebuild within the delay; returns at once (safe on Hazelcast's event threads). */
    void request(String reason) {
        synchronized (reasons) {
            if (reasons.size() < MAX_REASONS) {
                reasons.add(reason);
            } else {
                foldedAway++;
            }
            if (scheduled) {
                return;
            }
            scheduled = true;
        }
        try {
            executor.schedule(this::runPending, delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            LOG.debugf("rebuild for '%s' not scheduled: shutting down", reason);
        }
    }

    /** Runs a rebuild now on the rebuild thread and waits for it (start-up). */
    void runAndWait(String reason, Duration timeout) {
        try {
            executor.submit(() -> rebuild.accept(reason)).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while building the ketama rings", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("building the ketama rings failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("building the ketama rings took longer than " + timeout, e);
        }
    }

    private void runPending() {
        String reason;
        synchronized (reasons) {
            scheduled = false; // a request from here on schedules the next rebuild
            reason = String.join("; ", reasons) + (foldedAway > 0 ? "; and " + foldedAway + " more" : "");
            reasons.clear();
            foldedAway = 0;
        }
        try {
            rebuild.accept(reason);
        } catch (RuntimeException e) {
            LOG.errorf(e, "ketama ring rebuild (%s) failed; the previous rings stay in use", reason);
        }
    }

    @Override
    public void close() {
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warn("the ketama rebuild thread did not stop within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
