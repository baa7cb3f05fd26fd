package io.ketama.router.serving;

import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * What a member has purged, so that nothing fetched before a purge is stored after it, and the
 * member's fence: the moment it dropped everything it held because it may have missed a purge.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>Marks.</b> Every purge applied here takes the next number of a sequence. A fetch (of the
 *       origin, or of another member for a near copy) takes {@link #mark()} before it starts and stores
 *       its answer only where {@link #purgedSince} says neither its key nor one of its tags was purged
 *       after that mark: an origin answer sent before a purge that arrives after it (the usual race of
 *       a deploy and its purge) is served to who asked for it and stored nowhere.</li>
 *   <li><b>Bounded.</b> The purged keys and tags are remembered up to {@value #MAX_REMEMBERED}
 *       names together (about 100 bytes each, some 1 MB at most); past it they are forgotten and the
 *       forgetting counts as a purge of everything: every fetch that started before it stores nothing.
 *       Fetches last at most the origin timeout, so the cost is one round of misses not stored.</li>
 *   <li><b>Fence.</b> {@link #fence(String)} drops every stored answer and near copy here (through
 *       the listeners the stores registered) and counts as a purge of everything. A member fences when
 *       it may have missed a purge: it merged into another cluster, a member cut off from it came back,
 *       or this JVM stood still for longer than {@code pauseMillis} (a {@code SIGSTOP}, a long
 *       collection, a starved host): {@link #awake()}, called on every lookup, notices that before the
 *       first answer after the pause is served.</li>
 * </ul>
 * A lookup's {@link #awake()} reads one volatile field and the clock; it allocates nothing.
 */
public final class PurgeMarks {

    /** How often the watch ticks. */
    public static final long TICK_MILLIS = 100;

    /** Purged keys and tags remembered at most, together. */
    public static final int MAX_REMEMBERED = 10_000;

    private final AtomicLong sequence = new AtomicLong();
    private final ConcurrentHashMap<String, Long> keys = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Long> tags = new ConcurrentHashMap<>();
    /** The mark of the last purge of everything (a fence, or names forgotten). */
    private volatile long everything;
    private final CopyOnWriteArrayList<Runnable> dropAll = new CopyOnWriteArrayList<>();
    private final AtomicLong fences = new AtomicLong();
    private volatile String lastFence;

    private final LongSupplier nanoClock;
    private final long pauseNanos;
    /** When the watch last ticked (nanoTime); {@link Long#MIN_VALUE}: no watch runs. */
    private volatile long lastTick = Long.MIN_VALUE;

    /** Marks without a pause watch (a test's, or a member that never fences on a pause). */
    public PurgeMarks() {
        this(System::nanoTime, Long.MAX_VALUE);
    }

    /**
     * @param nanoClock   {@code System::nanoTime}, or a test's own
     * @param pauseMillis how long the watch may go without a tick before this JVM counts as having
     *                    stood still; {@link Long#MAX_VALUE}: never
     */
    public PurgeMarks(LongSupplier nanoClock, long pauseMillis) {
        this.nanoClock = nanoClock;
        this.pauseNanos = pauseMillis >= Long.MAX_VALUE / 1_000_000 ? Long.MAX_VALUE : pauseMillis * 1_000_000;
    }

    /** The mark a fetch takes before it starts. */
    public long mark() {
        return sequence.get();
    }

    /** Whether {@code key}, or one of {@code answerTags}, was purged (or everything was) after {@code mark}. */
    public boolean purgedSince(long mark, String key, Collection<String> answerTags) {
        if (sequence.get() == mark) {
            return false; // nothing at all since: the common case, two reads
        }
        if (everything > mark) {
            return true;
        }
        Long k = keys.get(key);
        if (k != null && k > mark) {
            return true;
        }
        for (String tag : answerTags) {
            Long t = tags.get(tag);
            if (t != null && t > mark) {
                return true;
            }
        }
        return false;
    }

    /** Records a purge of {@code purgedKeys} and {@code purgedTags} (before their answers are dropped). */
    public void purged(Collection<String> purgedKeys, Collection<String> purgedTags) {
        long s = sequence.incrementAndGet();
        if (keys.size() + tags.size() + purgedKeys.size() + purgedTags.size() > MAX_REMEMBERED) {
            everything = s;
            keys.clear();
            tags.clear();
            return;
        }
        for (String k : purgedKeys) {
            keys.put(k, s);
        }
        for (String t : purgedTags) {
            tags.put(t, s);
        }
    }

    /** Registers what drops every stored answer of a store (the local cache, the near copies). */
    public void onFence(Runnable dropEverything) {
        dropAll.add(dropEverything);
    }

    /**
     * Drops every stored answer and near copy here: this member may have missed a purge.
     *
     * @param why for the operator (logged by the caller) and {@link #lastFence()}
     */
    public void fence(String why) {
        everything = sequence.incrementAndGet();
        keys.clear();
        tags.clear();
        lastFence = why;
        fences.incrementAndGet();
        for (Runnable r : dropAll) {
            r.run();
        }
    }

    /**
     * The watch's tick (every {@value #TICK_MILLIS} ms): this JVM runs. Fences where the tick before
     * it is longer ago than the pause bound, as a lookup would: after a pause, whichever runs first
     * notices it.
     */
    public void tick() {
        if (!awake()) {
            lastTick = nanoClock.getAsLong();
        }
    }

    /**
     * Called before every lookup: fences where the watch has not ticked for longer than the pause
     * bound (this JVM stood still, and purges sent meanwhile may be waiting behind the requests).
     *
     * @return whether it fenced now
     */
    public boolean awake() {
        long last = lastTick;
        if (last == Long.MIN_VALUE || pauseNanos == Long.MAX_VALUE) {
            return false;
        }
        long now = nanoClock.getAsLong();
        if (now - last <= pauseNanos) {
            return false;
        }
        synchronized (this) {
            if (lastTick != last) {
                return false; // another lookup fenced for this pause already
            }
            lastTick = now;
            fence("this member stood still for " + (now - last) / 1_000_000 + " ms");
        }
        return true;
    }

    /** Fences so far. */
    public long fences() {
        return fences.get();
    }

    /** Why the last fence was, or null. */
    public String lastFence() {
        return lastFence;
    }
}
