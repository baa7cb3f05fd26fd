package io.ketama.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Bounded waits for tests on a loaded machine: poll until a condition holds, fail after a
 * generous deadline saying what was awaited and what was last seen. Never sleep-then-assert.
 */
public final class Await {

    private static final long POLL_MILLIS = 5;

    private Await() {
    }

    /** Polls {@code condition}; an {@link AssertionError} naming {@code what} after {@code deadline}. */
    public static void until(BooleanSupplier condition, Duration deadline, String what) {
        until(condition, deadline, () -> what);
    }

    /** As {@link #until(BooleanSupplier, Duration, String)}, describing what was awaited as things stand when it gives up. */
    public static void until(BooleanSupplier condition, Duration deadline, Supplier<String> what) {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("not within " + deadline + ": " + what.get());
            }
            pause(what);
        }
    }

    /** Polls {@code value} until it satisfies {@code condition} and returns it; fails after {@code deadline} with the last value seen. */
    public static <T> T until(Supplier<T> value, Predicate<T> condition, Duration deadline, String what) {
        long end = System.nanoTime() + deadline.toNanos();
        T last = value.get();
        while (!condition.test(last)) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("not within " + deadline + ": " + what + "; last value: " + last);
            }
            pause(() -> what);
            last = value.get();
        }
        return last;
    }

    private static void pause(Supplier<String> what) {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + what.get(), e);
        }
    }
}
