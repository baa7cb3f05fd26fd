package io.ketama.quarkus;

/**
 * One member's entry on the cluster's load board: what it served as a key's candidate in its last
 * window, how long that window was, and its weight on the rings. The cache-routing service's members
 * write theirs after every window (its {@code LoadBoard}); {@link RingSelector#publishedLoad()} reads
 * everyone's, on a member and on a client alike.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>The board is the Hazelcast replicated map {@value #MAP}, keyed by the member's UUID as text;
 *       a value is {@code long[] {FORMAT, sequence, served, windowNanos, weight}} ({@link #toArray()}).</li>
 *   <li>A reader skips a value whose first element is not {@value #FORMAT} (a later release may write
 *       another layout beside it) and one that is malformed ({@link #parse} answers null): one member's
 *       bad entry never hides the others'.</li>
 *   <li>{@code sequence} grows by one each window: a reader that sees it stand still for a few of its
 *       reads leaves the entry out (its member is paused, cut off or gone).</li>
 * </ul>
 *
 * @param sequence    the writer's window count: changes every window
 * @param served      answers the member served in that window (0 or more)
 * @param windowNanos how long the window was, nanoseconds (above 0)
 * @param weight      the member's weight on the rings; 0 while it is not on them (starting, draining)
 */
public record LoadBoardEntry(long sequence, long served, long windowNanos, int weight) {

    /** The replicated map that holds the board. */
    public static final String MAP = "ketama-router.load";
    /** The layout of a value this release writes and reads. */
    public static final long FORMAT = 1;

    public LoadBoardEntry {
        if (served < 0 || windowNanos <= 0 || weight < 0) {
            throw new IllegalArgumentException("a load board entry needs served >= 0, windowNanos > 0 and weight >= 0; was served "
                    + served + ", windowNanos " + windowNanos + ", weight " + weight);
        }
    }

    /** The value as written in {@link #MAP}. */
    public long[] toArray() {
        return new long[] {FORMAT, sequence, served, windowNanos, weight};
    }

    /** The entry a value of {@link #MAP} holds; null for another format or a malformed value. */
    public static LoadBoardEntry parse(Object value) {
        if (!(value instanceof long[] v) || v.length < 5 || v[0] != FORMAT || v[2] < 0 || v[3] <= 0 || v[4] < 0
                || v[4] > Integer.MAX_VALUE) {
            return null;
        }
        return new LoadBoardEntry(v[1], v[2], v[3], (int) v[4]);
    }

    /** Answers a second in the window: {@code served / window}. */
    public double rate() {
        return served * 1e9 / windowNanos;
    }
}
