package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The point sort is a stable sort by the upper word as an unsigned number: equal hashes keep the order they were emitted in. */
class PointSorterTest {

    /** The reference: the JDK's stable object sort by the upper word, unsigned. */
    private static long[] reference(long[] a, int n) {
        Long[] boxed = new Long[n];
        for (int i = 0; i < n; i++) {
            boxed[i] = a[i];
        }
        Arrays.sort(boxed, (x, y) -> Integer.compareUnsigned((int) (x >>> 32), (int) (y >>> 32)));
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = boxed[i];
        }
        return out;
    }

    private static void check(long[] a, int n) {
        long[] expected = reference(a, n);
        long[] sorted = PointSorter.sortByHighWord(a.clone(), n);
        assertThat(Arrays.copyOf(sorted, n)).isEqualTo(expected);
    }

    @Test
    void randomPointsOfEverySizeFromNoneToAMillion() {
        Random rnd = new Random(29);
        for (int n : new int[] {0, 1, 2, 100, 1_000, 4_097, 65_536, 250_000, 1_000_003}) {
            long[] a = new long[n + 5]; // a longer array than n: only a[0, n) is sorted
            for (int i = 0; i < a.length; i++) {
                a[i] = ((long) rnd.nextInt() << 32) | rnd.nextInt(1 << 24);
            }
            check(a, n);
        }
    }

    @Test
    void equalHashesKeepTheirInputOrder() {
        Random rnd = new Random(3);
        int n = 200_000;
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            // a tenth of the points on 16 hashes (some in the top half, where the sign bit is set), the rest random
            int hash = i % 10 == 0 ? (rnd.nextInt(16) * 0x1000_0001) : rnd.nextInt();
            a[i] = ((long) hash << 32) | rnd.nextInt(1_000);
        }
        check(a, n);
        long[] same = new long[100_000];
        for (int i = 0; i < same.length; i++) {
            same[i] = (0xDEAD_BEEFL << 32) | (same.length - i); // one hash, low words descending: kept as given
        }
        check(same, same.length);
    }

    @Test
    void hashesCrowdedInANarrowRangeOrAtTheExtremes() {
        Random rnd = new Random(5);
        int n = 100_000;
        long[] narrow = new long[n];
        long[] extremes = new long[n];
        for (int i = 0; i < n; i++) {
            narrow[i] = ((long) (0x7FFF_F000 + rnd.nextInt(0x2000)) << 32) | rnd.nextInt(50);
            int h = rnd.nextBoolean() ? rnd.nextInt(64) : -1 - rnd.nextInt(64);
            extremes[i] = ((long) h << 32) | rnd.nextInt(50);
        }
        check(narrow, n);
        check(extremes, n);
    }
}
