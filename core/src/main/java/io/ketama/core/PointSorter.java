package io.ketama.core;

/**
 * Stable LSD radix sort of packed points by their upper 32 bits as an unsigned number: three
 * passes of 11, 11 and 10 bits, O(n) with counting arrays that fit in L1.
 *
 * <p>Stability is the tie rule: ring builders emit points in tie-break order (input order for v1,
 * identity order for v2), so after sorting the first point of every run of equal hashes is the
 * one that must survive. At 3.3 M points this is several times faster than
 * {@link java.util.Arrays#sort(long[])}.
 *
 * <p>The three digits are counted in one read of the input, not one read per pass: a sort of a
 * ring too large for the caches is bound by how often it streams the array through memory, and
 * this makes it four times (one count, three scatters) instead of six. At 0.9 M points (1,000
 * nodes of weights 1–10 at 160 points per weight) that took a quarter off its CPU time.
 */
final class PointSorter {

    private static final int[] SHIFTS = {32, 43, 54};
    private static final int[] MASKS = {(1 << 11) - 1, (1 << 11) - 1, (1 << 10) - 1};
    /** Counters of digit {@code d} start at {@code d × 2048}. */
    private static final int DIGIT = 1 << 11;

    private PointSorter() {
    }

    /** Sorts {@code a[0, n)}; returns the sorted array, which is either {@code a} or a new scratch array. */
    static long[] sortByHighWord(long[] a, int n) {
        int[] counts = new int[3 * DIGIT];
        for (int i = 0; i < n; i++) {
            long v = a[i];
            counts[(int) (v >>> 32) & (DIGIT - 1)]++;
            counts[DIGIT + ((int) (v >>> 43) & (DIGIT - 1))]++;
            counts[2 * DIGIT + ((int) (v >>> 54) & (DIGIT / 2 - 1))]++;
        }
        for (int pass = 0; pass < 3; pass++) {
            int sum = 0;
            for (int d = pass * DIGIT, end = d + DIGIT; d < end; d++) {
                int c = counts[d];
                counts[d] = sum;
                sum += c;
            }
        }
        long[] src = a;
        long[] dst = new long[n];
        for (int pass = 0; pass < 3; pass++) {
            int s = SHIFTS[pass];
            int mask = MASKS[pass];
            int offset = pass * DIGIT;
            for (int i = 0; i < n; i++) {
                long v = src[i];
                dst[counts[offset + ((int) (v >>> s) & mask)]++] = v;
            }
            long[] t = src;
            src = dst;
            dst = t;
        }
        return src;
    }
}
