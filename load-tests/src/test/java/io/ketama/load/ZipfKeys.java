package io.ketama.load;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * An endless, reproducible sequence of cache keys whose popularity follows Zipf's law: the key of
 * rank r (1-based) is drawn with probability proportional to 1/r^s. Cache traffic looks like this
 * (a few hot objects, a long tail), so hit ratios measured with it resemble real ones.
 *
 * <p>Thread-safe: Gatling may feed users from several threads; draws are serialised so a seed
 * always yields the same sequence of keys (though not the same key per user).
 */
final class ZipfKeys implements Iterator<Map<String, Object>> {

    static final String KEY_PREFIX = "item-";

    private final double[] cumulative;
    private final SplittableRandom random;
    private final String prefix;

    /** Keys {@code item-1} … {@code item-<keyCount>}. */
    ZipfKeys(int keyCount, double exponent, long seed) {
        this(keyCount, exponent, seed, KEY_PREFIX);
    }

    /**
     * @param keyCount number of distinct keys, at least 1
     * @param exponent the skew s, above 0
     * @param seed     seed of the draws
     * @param prefix   text before the rank in every key (another prefix, another key set)
     */
    ZipfKeys(int keyCount, double exponent, long seed, String prefix) {
        if (keyCount < 1) {
            throw new IllegalArgumentException("key count must be >= 1, was " + keyCount);
        }
        if (!(exponent > 0) || Double.isInfinite(exponent)) {
            throw new IllegalArgumentException("Zipf exponent must be a finite number above 0, was " + exponent);
        }
        this.cumulative = new double[keyCount];
        double sum = 0;
        for (int r = 1; r <= keyCount; r++) {
            sum += 1.0 / Math.pow(r, exponent);
            cumulative[r - 1] = sum;
        }
        for (int i = 0; i < keyCount; i++) {
            cumulative[i] /= sum;
        }
        // Rounding may leave the last bucket a hair below 1; a draw of 0.99999... must still land.
        cumulative[keyCount - 1] = 1.0;
        this.random = new SplittableRandom(seed);
        this.prefix = prefix;
    }

    int keyCount() {
        return cumulative.length;
    }

    /** The probability of drawing the key of {@code rank} (1-based). */
    double probability(int rank) {
        return cumulative[rank - 1] - (rank == 1 ? 0 : cumulative[rank - 2]);
    }

    /**
     * The hit ratio one ideal cache (unbounded, never expiring, shared by every request) would
     * have over requests {@code from} to {@code to − 1} (1-based) of this key sequence: request t
     * hits when its key was drawn among the t − 1 before, so the expected hits are
     * {@code Σ_k Σ_t p_k (1 − (1 − p_k)^(t−1))}, summed in closed form per key. A cluster whose
     * routing sends every key to exactly one member matches it; one that spreads a key over
     * several members falls below it.
     */
    double idealHitRatio(long from, long to) {
        if (from < 1 || to <= from) {
            throw new IllegalArgumentException("requests must satisfy 1 <= from < to, were " + from + ", " + to);
        }
        double hits = 0;
        for (int r = 1; r <= cumulative.length; r++) {
            double p = probability(r);
            double q = 1 - p;
            hits += p * (to - from) - (Math.pow(q, from - 1) - Math.pow(q, to - 1));
        }
        return hits / (to - from);
    }

    /** The next key's rank, from 1 (the most popular) to {@link #keyCount()}. */
    synchronized int nextRank() {
        double u = random.nextDouble();
        int i = Arrays.binarySearch(cumulative, u);
        // binarySearch gives -(insertion point) - 1 when u is not a boundary: the first bucket above u.
        return (i >= 0 ? i : -i - 1) + 1;
    }

    /** The text of the key of {@code rank} in the default key set: short, URL-safe, distinct per rank. */
    static String keyOf(int rank) {
        return KEY_PREFIX + rank;
    }

    @Override
    public boolean hasNext() {
        return true;
    }

    /** A feeder record: {@code key} (the text) and {@code rank} (1-based popularity rank). */
    @Override
    public Map<String, Object> next() {
        int rank = nextRank();
        return Map.of("key", prefix + rank, "rank", rank);
    }
}
