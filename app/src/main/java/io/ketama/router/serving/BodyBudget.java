package io.ketama.router.serving;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of bodies that one member receives from the network and holds whole
 * ({@code ketama.router.admission.max-buffered-bytes}), shared by all of them: an origin fetch
 * reserves its body's bytes before it holds them and gives them back when it ends. A fetch that
 * cannot reserve them fails with {@link OverloadedException}, so a burst of misses for large objects
 * is refused with a 503 instead of filling the heap: {@code origin.max-in-flight} fetches of
 * {@code max-body-bytes} each would be 4 GiB at the defaults.
 *
 * <p>Lock-free (one compare-and-set per reservation) and touched only where a body arrives from the
 * network, never by a cache hit.
 */
public final class BodyBudget {

    /** The {@code RouterConfig} key of this budget, named in every refusal. */
    public static final String KEY = "ketama.router.admission.max-buffered-bytes";

    private final long maxBytes;
    private final AtomicLong used = new AtomicLong();

    /**
     * @param maxBytes the most bytes the bodies held hold together, at least 1
     * @throws IllegalArgumentException when {@code maxBytes < 1}
     */
    public BodyBudget(long maxBytes) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("max buffered bytes must be >= 1, was " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /**
     * The budget where none is configured: a quarter of the largest heap this JVM may have
     * ({@link Runtime#maxMemory()}), but never less than {@code maxBodyBytes}, so one body of the
     * largest size taken always fits.
     */
    public static long defaultBytes(long maxBodyBytes) {
        return Math.max(Runtime.getRuntime().maxMemory() / 4, maxBodyBytes);
    }

    /** Bytes the bodies held hold now. */
    public long usedBytes() {
        return used.get();
    }

    public long maxBytes() {
        return maxBytes;
    }

    private boolean take(long bytes) {
        while (true) {
            long now = used.get();
            if (bytes > maxBytes - now) {
                return false;
            }
            if (used.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    private void giveBack(long bytes) {
        used.addAndGet(-bytes);
    }

    /** A fetch's share, empty until it {@link Reservation#reserve reserves}; end it with {@link Reservation#release}. */
    Reservation open() {
        return new Reservation();
    }

    /** What this member holds of at most what, under which key: the start of every refusal. */
    String holding() {
        return "this member holds " + usedBytes() + " of at most " + maxBytes + " bytes of received bodies (" + KEY + ")";
    }

    /**
     * The bytes one body holds. It may reserve more as the body arrives; {@link #release()} gives
     * all of them back, once however often it is called, and a reservation refuses more after it.
     * Safe to use from more than one thread (a fetch's deadline may fire on another).
     */
    final class Reservation {

        private static final long RELEASED = -1;

        /** Bytes reserved so far, or {@link #RELEASED}. */
        private final AtomicLong held = new AtomicLong();

        /**
         * Reserves {@code bytes} more for this body.
         *
         * @return whether they fit in the budget; false too once released (nothing is then reserved)
         */
        boolean reserve(long bytes) {
            if (bytes == 0) {
                return held.get() != RELEASED;
            }
            if (!take(bytes)) {
                return false;
            }
            while (true) {
                long now = held.get();
                if (now == RELEASED) {
                    // released meanwhile (the fetch ended on another thread): these bytes are no one's
                    giveBack(bytes);
                    return false;
                }
                if (held.compareAndSet(now, now + bytes)) {
                    return true;
                }
            }
        }

        /** Gives back every byte reserved; only the first call does anything. */
        void release() {
            long bytes = held.getAndSet(RELEASED);
            if (bytes > 0) {
                giveBack(bytes);
            }
        }

        /** Bytes this body holds now (0 once released). */
        long held() {
            return Math.max(0, held.get());
        }

        /** The failure of a body refused {@code what} (say, "an answer of N bytes (its Content-Length)"). */
        OverloadedException refusal(String what) {
            return new OverloadedException(holding() + ": no room for " + what);
        }
    }

    @Override
    public String toString() {
        return "at most " + maxBytes + " bytes of bodies held at once";
    }
}
