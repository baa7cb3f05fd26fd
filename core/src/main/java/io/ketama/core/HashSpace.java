package io.ketama.core;

/**
 * Arithmetic on the 32-bit hash circle shared by analysis and diffs.
 *
 * <p>A point at hash {@code h[i]} owns the arc {@code (h[i−1], h[i]]} of unsigned hashes; the
 * first point also owns the wrap {@code (h[last], 2^32) ∪ [0, h[0]]}. Summed over every point the
 * arcs cover the circle exactly once, which is why arc lengths are exact counts of key hashes.
 */
final class HashSpace {

    /** Number of distinct key hashes: 2^32. */
    static final long SIZE = 1L << 32;

    private HashSpace() {
    }

    /**
     * Hashes owned by the point at {@code hash} whose predecessor on the circle is at
     * {@code previous}: {@code hash − previous} modulo 2^32, and the whole circle when the two are
     * the same point (a ring of one point).
     */
    static long arc(int previous, int hash) {
        long d = (Integer.toUnsignedLong(hash) - Integer.toUnsignedLong(previous)) & 0xFFFF_FFFFL;
        return d == 0 ? SIZE : d;
    }
}
