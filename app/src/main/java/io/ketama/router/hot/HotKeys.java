package io.ketama.router.hot;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The heaviest keys entering this member: a count-min sketch of every key it is asked for, beside a
 * list of the {@code top} keys with the highest counts, both decayed by halving every
 * {@code window} (a heavy-hitter sketch of bounded memory, Cormode and Muthukrishnan's count-min
 * with a top-k list, as the "space-saving" family does).
 *
 * <h2>Contract and numbers</h2>
 * <ul>
 *   <li>Memory: {@value #ROWS} rows of {@value #WIDTH} {@code int} counters (64 KiB) and at most
 *       {@code top} keys, whatever the traffic.</li>
 *   <li>{@link #record} counts the key in one counter of each row (rows indexed by two mixes of the
 *       key's {@link String#hashCode}, Kirsch and Mitzenmacher's {@code h1 + i·h2}) by conservative
 *       update (Estan and Varghese: only the counters at the key's smallest grow, to one above it); its
 *       {@link #estimate} is the smallest of the four, never below the key's true decayed count and
 *       above it by at most {@code e·N/W} with probability {@code 1 − e^−4} ({@code N} the decayed
 *       count of all keys, {@code W} = 4,096), less in practice with conservative update: at 10,000
 *       requests a second into one member, halved every second ({@code N} ≈ 20,000), at most 13 over
 *       the truth with probability 0.98 by that bound.</li>
 *   <li>Decay: every {@code window} all counters halve, so a key asked {@code r} times a second
 *       counts {@code r·(T + t)} at a time {@code t} into the window ({@code T} its length) and
 *       {@link #top} reports {@code estimate / (T + t)} as its rate, exact in a steady state.</li>
 *   <li>A key enters the list once its estimate is at least {@code minCount} and above the smallest
 *       in a full list (which it then replaces); the list is re-sorted at every halving, which also
 *       drops keys below {@code minCount}.</li>
 * </ul>
 *
 * <h2>Cost on the request path</h2>
 * {@link #record}: one hash mix, four reads and writes of counters (plain {@code int}s: two event
 * loops may lose an increment to each other now and then, which an estimate tolerates), and, only for
 * a key at or above the list's threshold, a scan of the list's hashes (a key already there goes no
 * further). Entering the list takes a lock, tried, never waited for: a key that finds it taken tries
 * again on its next request. No allocation but an entry's when a key enters the list.
 */
public final class HotKeys {

    static final int MAX_MIN_REQUESTS = 1_000_000;
    static final java.time.Duration MIN_WINDOW = java.time.Duration.ofMillis(100);
    static final java.time.Duration MAX_WINDOW = java.time.Duration.ofHours(1);
    static final int ROWS = 4;
    static final int WIDTH = 4096;
    private static final int MASK = WIDTH - 1;

    /** One key of the list: its hash is compared before its text. */
    private record Entry(String key, int hash) {
    }

    /** A heavy key as {@link #top} reports it. */
    public record HotKey(String key, long estimate, double rate) {
    }

    private final int[] counts = new int[ROWS * WIDTH];
    private final int top;
    private final int minCount;
    private final long windowNanos;
    private final LongSupplier clock;
    private final ReentrantLock entering = new ReentrantLock();
    private volatile Entry[] heaviest = new Entry[0];
    /** The estimate a key needs to try the list: {@code minCount}, or above the smallest in a full list. */
    private volatile int threshold;
    private volatile long halvedAt;

    /**
     * @param top      keys the list holds, 1 to 1,024
     * @param minCount the estimate a key needs to enter the list (and {@link #isHot} to be hot), at least 1
     * @param window   how often every count halves
     * @param clock    nanoseconds ({@link System#nanoTime})
     */
    public HotKeys(int top, int minCount, java.time.Duration window, LongSupplier clock) {
        check(top, minCount, window);
        this.top = top;
        this.minCount = minCount;
        this.windowNanos = window.toNanos();
        this.clock = clock;
        this.threshold = minCount;
        this.halvedAt = clock.getAsLong();
    }

    /**
     * The ranges of {@link #HotKeys}'s settings ({@code ketama.router.hot-keys.*}).
     *
     * @throws IllegalArgumentException naming the setting below its key, the value and the range
     */
    public static void check(int top, int minCount, java.time.Duration window) {
        if (top < 1 || top > 1024) {
            throw new IllegalArgumentException(".top: must be 1 to 1024 keys, e.g. 32; was " + top);
        }
        if (minCount < 1 || minCount > MAX_MIN_REQUESTS) {
            throw new IllegalArgumentException(".min-requests: must be 1 to " + MAX_MIN_REQUESTS + " requests, e.g. 16; was "
                    + minCount);
        }
        if (window.compareTo(MIN_WINDOW) < 0 || window.compareTo(MAX_WINDOW) > 0) {
            throw new IllegalArgumentException(".window: must be " + MIN_WINDOW.toMillis() + " ms to " + MAX_WINDOW.toHours()
                    + " h, e.g. 1s; was " + window);
        }
    }

    /** Counts one request for {@code key}. */
    public void record(String key) {
        int h = key.hashCode();
        int h1 = mix(h);
        int h2 = mix(h ^ 0x9E3779B9) | 1;
        int[] c = counts;
        int i0 = (h1 & MASK);
        int i1 = WIDTH + ((h1 + h2) & MASK);
        int i2 = 2 * WIDTH + ((h1 + 2 * h2) & MASK);
        int i3 = 3 * WIDTH + ((h1 + 3 * h2) & MASK);
        int v0 = c[i0];
        int v1 = c[i1];
        int v2 = c[i2];
        int v3 = c[i3];
        int next = Math.min(Math.min(v0, v1), Math.min(v2, v3)) + 1;
        if (next < 0) {
            return; // never past Integer.MAX_VALUE: a halving comes long before
        }
        // conservative update: only the counters at the smallest grow, to the new estimate
        if (v0 < next) {
            c[i0] = next;
        }
        if (v1 < next) {
            c[i1] = next;
        }
        if (v2 < next) {
            c[i2] = next;
        }
        if (v3 < next) {
            c[i3] = next;
        }
        if (next >= threshold) {
            offer(key, h, next);
        }
    }

    /** The key's decayed count: at least its true one (see the class javadoc for how much above). */
    public int estimate(String key) {
        int h = key.hashCode();
        return estimate(mix(h), mix(h ^ 0x9E3779B9) | 1);
    }

    private int estimate(int h1, int h2) {
        int min = Integer.MAX_VALUE;
        for (int row = 0; row < ROWS; row++) {
            min = Math.min(min, counts[row * WIDTH + ((h1 + row * h2) & MASK)]);
        }
        return min;
    }

    private int estimateOf(Entry e) {
        return estimate(mix(e.hash), mix(e.hash ^ 0x9E3779B9) | 1);
    }

    /** Whether {@code key} is in the list of the heaviest and counts at least {@code minCount} now. */
    public boolean isHot(String key) {
        Entry[] list = heaviest;
        int h = key.hashCode();
        for (Entry e : list) {
            if (e.hash == h && e.key.equals(key)) {
                return estimateOf(e) >= minCount;
            }
        }
        return false;
    }

    private void offer(String key, int hash, int estimate) {
        for (Entry e : heaviest) {
            if (e.hash == hash && e.key.equals(key)) {
                return; // already listed: the common case for a hot key
            }
        }
        if (!entering.tryLock()) {
            return; // another key is entering: this one tries again on its next request
        }
        try {
            Entry[] list = heaviest;
            for (Entry e : list) {
                if (e.hash == hash && e.key.equals(key)) {
                    return;
                }
            }
            if (list.length < top) {
                Entry[] more = java.util.Arrays.copyOf(list, list.length + 1);
                more[list.length] = new Entry(key, hash);
                heaviest = more;
                if (more.length == top) {
                    threshold = Math.max(minCount, smallest(more) + 1);
                }
                return;
            }
            int weakest = 0;
            int weakestEstimate = Integer.MAX_VALUE;
            for (int i = 0; i < list.length; i++) {
                int v = estimateOf(list[i]);
                if (v < weakestEstimate) {
                    weakestEstimate = v;
                    weakest = i;
                }
            }
            if (estimate > weakestEstimate) {
                Entry[] next = list.clone();
                next[weakest] = new Entry(key, hash);
                heaviest = next;
                threshold = Math.max(minCount, smallest(next) + 1);
            } else {
                threshold = Math.max(minCount, weakestEstimate + 1); // the list's counts grew since it was set
            }
        } finally {
            entering.unlock();
        }
    }

    private int smallest(Entry[] list) {
        int min = Integer.MAX_VALUE;
        for (Entry e : list) {
            min = Math.min(min, estimateOf(e));
        }
        return min;
    }

    /**
     * Halves every count and drops from the list the keys now below {@code minCount}: called every
     * {@code window} by the member's timer, never on the request path.
     */
    public void halve() {
        int[] c = counts;
        for (int i = 0; i < c.length; i++) {
            c[i] >>>= 1;
        }
        halvedAt = clock.getAsLong();
        entering.lock();
        try {
            List<Entry> kept = new ArrayList<>();
            for (Entry e : heaviest) {
                if (estimateOf(e) >= minCount) {
                    kept.add(e);
                }
            }
            Entry[] next = kept.toArray(new Entry[0]);
            heaviest = next;
            threshold = next.length < top ? minCount : Math.max(minCount, smallest(next) + 1);
        } finally {
            entering.unlock();
        }
    }

    /** The heaviest keys now, heaviest first, with their estimates and rates (requests a second). */
    public List<HotKey> top() {
        double seconds = (windowNanos + Math.max(0, clock.getAsLong() - halvedAt)) / 1e9;
        List<HotKey> out = new ArrayList<>();
        for (Entry e : heaviest) {
            int v = estimateOf(e);
            out.add(new HotKey(e.key, v, v / seconds));
        }
        out.sort(Comparator.comparingLong(HotKey::estimate).reversed());
        return out;
    }

    /** How many keys the list holds at most. */
    public int capacity() {
        return top;
    }

    public int minCount() {
        return minCount;
    }

    /** How often every count halves. */
    public java.time.Duration window() {
        return java.time.Duration.ofNanos(windowNanos);
    }

    /** Bytes of its counters. */
    public static long sketchBytes() {
        return 4L * ROWS * WIDTH;
    }

    /** Murmur3's 32-bit finalizer: every bit of the hash moves every bit of the index. */
    private static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        h ^= h >>> 16;
        return h;
    }
}
