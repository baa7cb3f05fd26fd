package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The point table against a plain unsigned lower bound over the sorted hashes: uniform hashes
 * (the window answers), clustered hashes (the estimate is far off and the fallback search
 * answers), and the edges (empty buckets, first and last point, wrap-around, equal neighbours).
 */
class PointTableTest {

    /** {@code count} distinct sorted (unsigned) hashes drawn by {@code draw}. */
    private static int[] sortedDistinct(Random rnd, int count, java.util.function.IntSupplier draw) {
        long[] v = new long[0];
        int n = 0;
        while (n < count) {
            long[] more = Arrays.copyOf(v, count + count / 8 + 8);
            for (int i = n; i < more.length; i++) {
                more[i] = Integer.toUnsignedLong(draw.getAsInt());
            }
            Arrays.sort(more);
            n = 0;
            for (int i = 0; i < more.length; i++) {
                if (i == 0 || more[i] != more[i - 1]) {
                    more[n++] = more[i];
                }
            }
            v = Arrays.copyOf(more, n);
        }
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = (int) v[(int) ((long) i * n / count)];
        }
        return out;
    }

    private static int reference(int[] sorted, int hash) {
        if (sorted.length == 0) {
            return -1;
        }
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Integer.compareUnsigned(sorted[mid], hash) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo == sorted.length ? 0 : lo;
    }

    private static void check(int[] hashes, int nodeCount, Random rnd) {
        int[] nodes = new int[hashes.length];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = rnd.nextInt(nodeCount);
        }
        PointTable t = new PointTable(hashes, nodes, hashes.length, nodeCount);
        assertThat(t.count()).isEqualTo(hashes.length);
        assertThat(t.hashes()).isEqualTo(hashes);
        for (int i = 0; i < hashes.length; i++) {
            assertThat(t.nodeAt(i)).isEqualTo(nodes[i]);
        }
        for (int i = 0; i < Math.min(hashes.length, 2_000); i++) {
            int p = rnd.nextInt(hashes.length);
            assertThat(t.hashAt(p)).isEqualTo(hashes[p]);
        }
        int[] probes = new int[200_000];
        for (int i = 0; i < probes.length; i++) {
            probes[i] = switch (i % 4) {
                case 0 -> rnd.nextInt();
                case 1 -> hashes.length == 0 ? 0 : hashes[rnd.nextInt(hashes.length)];
                case 2 -> hashes.length == 0 ? -1 : hashes[rnd.nextInt(hashes.length)] + 1;
                default -> hashes.length == 0 ? 1 : hashes[rnd.nextInt(hashes.length)] - 1;
            };
        }
        int[] edges = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x0000FFFF, 0xFFFF0000};
        int wrong = 0;
        String first = null;
        for (int[] set : new int[][] {probes, edges}) {
            for (int h : set) {
                int want = reference(hashes, h);
                int got = t.position(h);
                if (want != got) {
                    wrong++;
                    if (first == null) {
                        first = "hash " + Integer.toUnsignedString(h) + ": want " + want + " got " + got;
                    }
                }
            }
        }
        assertThat(wrong).as("%s", first).isZero();
    }

    @ParameterizedTest(name = "{0} points, {1} nodes")
    @CsvSource({"0, 1", "1, 1", "2, 2", "3, 100", "9, 3", "100, 7", "1600, 100", "16000, 100",
            "33000, 2048", "327680, 2048", "100000, 70000"})
    void uniformHashes(int count, int nodeCount) {
        Random rnd = new Random(count * 31L + nodeCount);
        check(sortedDistinct(rnd, count, rnd::nextInt), nodeCount, rnd);
    }

    /** Hashes crowded into a few narrow ranges: buckets far from uniform, so the fallback search answers. */
    @ParameterizedTest(name = "{0} points in {1} clusters")
    @CsvSource({"5000, 1", "5000, 3", "40000, 5", "20000, 200"})
    void clusteredHashes(int count, int clusters) {
        Random rnd = new Random(count + clusters);
        int[] centres = rnd.ints(clusters).toArray();
        check(sortedDistinct(rnd, count, () -> centres[rnd.nextInt(clusters)] + rnd.nextInt(1 << 14)), 50, rnd);
    }

    /** Half the points uniform, half crowded: both the window and the fallback answer in one table. */
    @Test
    void mixedDensity() {
        Random rnd = new Random(5);
        int c = rnd.nextInt();
        check(sortedDistinct(rnd, 60_000, () -> rnd.nextBoolean() ? rnd.nextInt() : c + rnd.nextInt(1 << 20)), 300, rnd);
    }

    @Test
    void bytesPerPointOfTheBenchmarkRings() {
        Random rnd = new Random(9);
        // (points, nodes, max bytes per point): the targets of issue 3
        int[][] rings = {{16_000, 100, 500}, {1_600, 100, 500}, {327_680, 2048, 450}, {3_276_800, 2048, 450}, {160_000, 256, 450}};
        for (int[] r : rings) {
            int[] hashes = sortedDistinct(rnd, r[0], rnd::nextInt);
            PointTable t = new PointTable(hashes, new int[r[0]], r[0], r[1]);
            assertThat(t.retainedBytes() * 100.0 / r[0]).as("%d points, %d nodes", r[0], r[1]).isLessThanOrEqualTo(r[2]);
        }
    }

    /** Large uniform tables compare windows without masks; tiny or crowded ones mask; both must be exact (above). */
    @Test
    void bothWindowModesOccur() {
        Random rnd = new Random(77);
        int[] big = sortedDistinct(rnd, 327_680, rnd::nextInt);
        assertThat(new PointTable(big, new int[big.length], big.length, 2048).modular()).isTrue();
        int[] small = sortedDistinct(rnd, 1_600, rnd::nextInt);
        assertThat(new PointTable(small, new int[small.length], small.length, 100).modular()).isFalse();
        int c = rnd.nextInt();
        int[] crowded = sortedDistinct(rnd, 40_000, () -> c + rnd.nextInt(1 << 16));
        assertThat(new PointTable(crowded, new int[crowded.length], crowded.length, 8).modular()).isFalse();
    }

    @Test
    void tooManyNodesIsAClearError() {
        assertThatThrownBy(() -> new PointTable(new int[0], new int[0], 0, (1 << 24) + 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 16777216 nodes");
    }
}
