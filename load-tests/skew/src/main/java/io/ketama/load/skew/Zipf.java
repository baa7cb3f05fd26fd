package io.ketama.load.skew;

import java.util.SplittableRandom;

/**
 * Ranks {@code 0 .. n-1} drawn with Zipf's law: rank {@code k} (0-based) has probability
 * <pre>    p(k) = (k + 1)^-s / H(n, s),   H(n, s) = Σ_{j=1..n} j^-s</pre>
 * so {@code s = 0} is uniform and a larger {@code s} puts more of the draws on the first ranks.
 * With {@code n = 20,000}: rank 0 takes 0.005 % of the draws at {@code s = 0}, 5.7 % at 0.9, 14.6 % at
 * 1.1 and 26.6 % at 1.3, so at 1.1 the owner of that one key alone carries 1.16× the mean share of
 * 8 members (12.5 %).
 *
 * <p>Drawn by inversion over the cumulative table ({@code n} doubles, 160 KB at 20,000 ranks): one
 * uniform double and a binary search, {@code ⌈log2 n⌉} steps, nothing allocated. The table is
 * built once; {@link #next} is safe from any thread that brings its own random source.
 */
public final class Zipf {

    /** The most ranks a table is made for (8 MB of doubles). */
    public static final int MAX_RANKS = 1 << 20;
    /** The largest exponent taken: past it nearly every draw is rank 0. */
    public static final double MAX_EXPONENT = 10.0;

    private final double exponent;
    private final double[] cumulative;

    private Zipf(int n, double s) {
        this.exponent = s;
        this.cumulative = new double[n];
        double sum = 0;
        for (int k = 0; k < n; k++) {
            sum += Math.pow(k + 1, -s);
            cumulative[k] = sum;
        }
        for (int k = 0; k < n; k++) {
            cumulative[k] /= sum;
        }
        // rounding must never leave a draw past the last rank
        cumulative[n - 1] = 1.0;
    }

    /**
     * Zipf's law over {@code n} ranks with exponent {@code s}.
     *
     * @throws IllegalArgumentException unless {@code 1 ≤ n ≤ MAX_RANKS} and {@code 0 ≤ s ≤ MAX_EXPONENT}
     */
    public static Zipf of(int n, double s) {
        if (n < 1 || n > MAX_RANKS) {
            throw new IllegalArgumentException("ranks must be from 1 to " + MAX_RANKS + ", was " + n);
        }
        if (!(s >= 0 && s <= MAX_EXPONENT)) {
            throw new IllegalArgumentException("the Zipf exponent must be from 0 (uniform) to " + MAX_EXPONENT + ", was " + s);
        }
        return new Zipf(n, s);
    }

    public int ranks() {
        return cumulative.length;
    }

    public double exponent() {
        return exponent;
    }

    /** The probability of rank {@code k} (0-based). */
    public double probability(int k) {
        return k == 0 ? cumulative[0] : cumulative[k] - cumulative[k - 1];
    }

    /** One rank, from one draw of {@code random}. */
    public int next(SplittableRandom random) {
        return rankOf(random.nextDouble());
    }

    /** The rank whose cumulative interval holds {@code u} (in [0, 1)): the first k with cdf(k) > u. */
    int rankOf(double u) {
        int lo = 0;
        int hi = cumulative.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulative[mid] > u) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }
}
