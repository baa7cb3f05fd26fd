package io.ketama.core;

/**
 * Stable LSD radix sort of packed points by their upper 32 bits as an unsigned number: three
 * passes of 11, 11 and 10 bits, O(n) with counting arrays that fit in L1.
 *
 * <p>Stability is the tie rule: ring builders emit points in tie-break order (input order for v1,
 * identity order for v2), so after sorting the first point of every run of equal hashes is the
 * one that must survive. At 3.3 M points this is several times faster than
 * {@link java.util.Arrays#sort(long[])}.
 */
final class PointSorter {

    private PointSorter() {
    }

    /** Sorts {@code a[0, n)}; returns the sorted array, which is either {@code a} or a new scratch array. */
    static long[] sortByHighWord(long[] a, int n) {
        long[] src = a;
        long[] dst = new long[n];
        int[] counts = new int[2049];
        int[] shifts = {32, 43, 54};
        int[] widths = {11, 11, 10};
        for (int pass = 0; pass < 3; pass++) {
            int s = shifts[pass];
            int mask = (1 << widths[pass]) - 1;
            java.util.Arrays.fill(counts, 0);
            for (int i = 0; i < n; i++) {
                counts[(int) (src[i] >>> s) & mask]++;
            }
            int sum = 0;
            for (int d = 0; d <= mask; d++) {
                int c = counts[d];
                counts[d] = sum;
                sum += c;
            }
            for (int i = 0; i < n; i++) {
                long v = src[i];
                dst[counts[(int) (v >>> s) & mask]++] = v;
            }
            long[] t = src;
            src = dst;
            dst = t;
        }
        return src;
    }
}
