package io.ketama.client;

/**
 * One member's breaker: held off for a while after {@code failures} failed attempts in a row, or for
 * the {@code Retry-After} of its {@code 503}; once that time has passed, the next attempt probes it.
 * Races between threads only move the hold by an attempt's worth: no lock, two volatile fields.
 */
final class MemberBreaker {

    private volatile int failuresInARow;
    private volatile long heldUntilNanos;

    /** Whether the member is held off at {@code now}. */
    boolean heldOff(long now) {
        long until = heldUntilNanos;
        return until != 0 && now - until < 0;
    }

    void answered() {
        if (failuresInARow != 0) {
            failuresInARow = 0;
        }
        if (heldUntilNanos != 0) {
            heldUntilNanos = 0;
        }
    }

    /** A failed attempt; holds the member off for {@code openForNanos} once {@code threshold} failed in a row. */
    void failed(long now, int threshold, long openForNanos) {
        int n = failuresInARow + 1;
        failuresInARow = n;
        if (n >= threshold) {
            holdOff(now, openForNanos);
        }
    }

    /** Holds the member off for {@code nanos} from {@code now} (a {@code 503}'s Retry-After). */
    void holdOff(long now, long nanos) {
        long until = now + nanos;
        heldUntilNanos = until == 0 ? 1 : until;
    }
}
