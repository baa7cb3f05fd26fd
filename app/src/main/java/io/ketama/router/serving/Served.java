package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * A served key: the answer, how it was obtained and by which member; equal when those are.
 *
 * <p>An answer this member received from another member (a forward's reply) also holds the bytes
 * of its body in this member's {@link BodyBudget}, reserved before the body was kept
 * ({@link #received}); whoever ends its way gives them back with {@link #release}, once: the edge
 * once the answer is written to the client (or the client is gone), a stage that drops it (a
 * forward answered after its time limit) at once. Every other answer (served here: from the cache,
 * the origin) holds nothing, and {@link #release} does nothing for it. The bytes sit in a field of
 * the answer rather than in an object of their own: a forwarded reply costs no allocation for them.
 */
public final class Served {

    private static final VarHandle HELD;

    static {
        try {
            HELD = MethodHandles.lookup().findVarHandle(Served.class, "held", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final OriginAnswer answer;
    private final CacheStatus cache;
    private final String servedBy;
    /** Where {@link #held} came from; null: it holds nothing. */
    private final BodyBudget budget;
    /** Bytes of {@link #budget} this answer holds; 0 once released. Read and written through {@link #HELD}. */
    @SuppressWarnings("unused")
    private volatile long held;

    /**
     * An answer that holds no bytes of any budget.
     *
     * @param answer   the origin's answer (from cache or fresh)
     * @param cache    hit, miss or bypass
     * @param servedBy the serving member's address as {@code host:port}
     */
    public Served(OriginAnswer answer, CacheStatus cache, String servedBy) {
        this(answer, cache, servedBy, null, 0);
    }

    private Served(OriginAnswer answer, CacheStatus cache, String servedBy, BodyBudget budget, long held) {
        this.answer = Objects.requireNonNull(answer, "answer");
        this.cache = Objects.requireNonNull(cache, "cache");
        this.servedBy = Objects.requireNonNull(servedBy, "servedBy");
        this.budget = budget;
        this.held = held;
    }

    /**
     * An answer received from another member whose body's {@code heldBytes} were taken from
     * {@code budget} ({@link BodyBudget#take}, or a reservation {@link BodyBudget.Reservation#handOver
     * handed over}); they are this answer's now, until {@link #release}.
     */
    public static Served received(OriginAnswer answer, CacheStatus cache, String servedBy, BodyBudget budget, long heldBytes) {
        if (heldBytes < 0) {
            throw new IllegalArgumentException("held bytes must be >= 0, was " + heldBytes);
        }
        return new Served(answer, cache, servedBy, Objects.requireNonNull(budget, "budget"), heldBytes);
    }

    public OriginAnswer answer() {
        return answer;
    }

    public CacheStatus cache() {
        return cache;
    }

    public String servedBy() {
        return servedBy;
    }

    /** Whether this answer holds bytes of a budget now (a received one, not released yet). */
    public boolean holdsBytes() {
        return budget != null && (long) HELD.getVolatile(this) > 0;
    }

    /** Bytes of the budget this answer holds now: 0 for one served here, and once released. */
    public long heldBytes() {
        return (long) HELD.getVolatile(this);
    }

    /**
     * Gives the bytes this answer holds back to its budget: the first call does, every later one
     * (and every call on an answer that holds none) does nothing. Safe from any thread.
     */
    public void release() {
        if (budget == null) {
            return; // served here: no atomic operation at all
        }
        long bytes = (long) HELD.getAndSet(this, 0L);
        if (bytes > 0) {
            budget.giveBack(bytes);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Served s && s.answer.equals(answer) && s.cache == cache && s.servedBy.equals(servedBy);
    }

    @Override
    public int hashCode() {
        return Objects.hash(answer, cache, servedBy);
    }

    @Override
    public String toString() {
        return "Served[answer=" + answer + ", cache=" + cache + ", servedBy=" + servedBy
                + (budget == null ? "" : ", holding " + heldBytes() + " bytes") + "]";
    }
}
