package io.ketama.router.serving;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of bodies that one member receives from the network and holds whole, shared by all of
 * them ({@code ketama.router.admission.max-buffered-bytes}): the answers of its origin fetches under
 * way, and the replies of other members to its forwards, from the moment each is known to be coming
 * until it is no longer held (a fetch's end; a reply's write to the client). Whoever receives a body
 * reserves its bytes before it holds them and gives them back when it lets go; one that cannot
 * reserve them is refused ({@link OverloadedException}, {@link NoRoomForReplyException}), so a burst
 * of large objects is answered with 503s instead of filling the heap: 128 requests in flight, or 256
 * fetches under way, of {@code max-body-bytes} each would be 2 or 4 GiB at the defaults.
 *
 * <p>Lock-free: a reservation is one compare-and-set on one counter, a release one add. Touched
 * only where a body arrives from the network, never by a cache hit.
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

    /**
     * Takes {@code bytes} at once if they fit: for a body whose whole length is known before any of
     * it is kept (a forwarded reply). Whoever took them gives them back with {@link #giveBack}, once.
     *
     * @return whether they fit (nothing is taken when they do not)
     */
    public boolean take(long bytes) {
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

    /** Gives back {@code bytes} that {@link #take} took. */
    public void giveBack(long bytes) {
        used.addAndGet(-bytes);
    }

    /** An origin fetch's share, empty until it {@link Reservation#reserve reserves}; end it with {@link Reservation#release}. */
    Reservation open() {
        return new Reservation(false);
    }

    /**
     * A forwarded reply's share, for a transport that reserves a body as it arrives
     * ({@link BoundedBody}); its refusal is a {@link NoRoomForReplyException}. Hand what it holds to
     * the reply with {@link Reservation#handOver}, or end it with {@link Reservation#release}.
     */
    public Reservation openForReply() {
        return new Reservation(true);
    }

    /**
     * The failure of a forward whose reply found no room: {@code what} was refused (say, "a reply
     * of N bytes from member X over binary").
     */
    public NoRoomForReplyException replyRefusal(String what) {
        return new NoRoomForReplyException(holding() + ": no room for " + what);
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
    public final class Reservation {

        private static final long RELEASED = -1;

        /** Bytes reserved so far, or {@link #RELEASED}. */
        private final AtomicLong held = new AtomicLong();
        private final boolean reply;

        private Reservation(boolean reply) {
            this.reply = reply;
        }

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

        /** Gives back every byte reserved; only the first call (or {@link #handOver}) does anything. */
        public void release() {
            long bytes = held.getAndSet(RELEASED);
            if (bytes > 0) {
                giveBack(bytes);
            }
        }

        /**
         * Ends this reservation without giving its bytes back: they pass to whoever holds the body
         * now, who gives them back with {@link #giveBack} (a {@link Served#received} reply does).
         *
         * @return the bytes handed over; 0 when released already
         */
        public long handOver() {
            return Math.max(0, held.getAndSet(RELEASED));
        }

        /** Bytes this body holds now (0 once released). */
        long held() {
            return Math.max(0, held.get());
        }

        /** The failure of a body refused {@code what} (say, "an answer of N bytes (its Content-Length)"). */
        OverloadedException refusal(String what) {
            String message = holding() + ": no room for " + what;
            return reply ? new NoRoomForReplyException(message) : new OverloadedException(message);
        }
    }

    @Override
    public String toString() {
        return "at most " + maxBytes + " bytes of bodies held at once";
    }
}
