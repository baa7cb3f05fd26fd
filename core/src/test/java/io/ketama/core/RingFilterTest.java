package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A feature ring materialised by filtering the full ring's points ({@link KetamaRing#filter}) is
 * the ring built from the qualifying nodes ({@link KetamaRing#restrict}): same points, owners and
 * colliding losers, for every placement, with twins (equal identities: every point collides), and
 * for several subsets filtered in one pass (more than 64: two groups).
 */
class RingFilterTest {

    @Test
    void filteringTheFullRingIsBuildingFromTheSubset() {
        Random rnd = new Random(29);
        for (int round = 0; round < 40; round++) {
            List<Node<Integer>> nodes = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                String host = "10.1." + rnd.nextInt(3) + "." + rnd.nextInt(12); // repeats: twins whose points all collide
                nodes.add(Node.of(HashIdentity.of(host, "11211"), 1 + rnd.nextInt(3), i));
            }
            List<KetamaRing<Integer>> rings = List.of(KetamaRing.build(RingVersion.V1, 8, nodes), KetamaRing.build(RingVersion.V2, 8, nodes),
                    KetamaRing.build(HashStyle.HASHRING, nodes), KetamaRing.build(HashStyle.SPYMEMCACHED_WEIGHTED, nodes));
            for (KetamaRing<Integer> full : rings) {
                assertThat(full.collisions().size()).isPositive();
                // several subsets in one pass; in the first round more than the 64 one pass takes
                int subsets = round == 0 ? 70 : 1 + rnd.nextInt(5);
                int[][] toFull = new int[subsets][];
                for (int s = 0; s < subsets; s++) {
                    List<Integer> index = new ArrayList<>();
                    for (int i = 0; i < nodes.size(); i++) {
                        if (rnd.nextInt(3) == 0) {
                            index.add(i);
                        }
                    }
                    toFull[s] = index.stream().mapToInt(Integer::intValue).toArray();
                }
                KetamaRing<Integer>[] filtered = full.filter(toFull);
                assertThat(filtered).hasSize(subsets);
                for (int s = 0; s < subsets; s++) {
                    assertSameRing(full, toFull[s], filtered[s]);
                }
            }
        }
    }

    @Test
    void aLargeRingWhosePointsDecodeFromTheirFieldsFiltersAsBuilt() {
        Random rnd = new Random(1_000);
        List<Node<Integer>> nodes = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            nodes.add(Node.of(HashIdentity.of("10.2." + (i >>> 8) + "." + (i & 255), "6443"), 1 + rnd.nextInt(10), i));
        }
        KetamaRing<Integer> full = KetamaRing.build(RingVersion.V1, nodes);
        assertThat(full.points().modular()).isTrue(); // buckets decode from the low bucket bits with a carry
        int[][] toFull = new int[6][];
        for (int s = 0; s < toFull.length; s++) {
            List<Integer> index = new ArrayList<>();
            for (int i = 0; i < nodes.size(); i++) {
                if (rnd.nextInt(s + 2) == 0) {
                    index.add(i);
                }
            }
            toFull[s] = index.stream().mapToInt(Integer::intValue).toArray();
        }
        KetamaRing<Integer>[] filtered = full.filter(toFull);
        for (int s = 0; s < toFull.length; s++) {
            assertSameRing(full, toFull[s], filtered[s]);
        }
    }

    private static void assertSameRing(KetamaRing<Integer> full, int[] toFull, KetamaRing<Integer> filtered) {
        List<Node<Integer>> subset = new ArrayList<>();
        long[] counts = new long[toFull.length];
        for (int i = 0; i < toFull.length; i++) {
            subset.add(full.nodes().get(toFull[i]));
            counts[i] = full.points().generatedPointsOf(toFull[i]);
        }
        KetamaRing<Integer> built = full.restrict(subset, counts);
        assertThat(filtered.nodes()).isEqualTo(built.nodes());
        assertThat(filtered.points().hashes()).isEqualTo(built.points().hashes());
        assertThat(filtered.generatedPointCount()).isEqualTo(built.generatedPointCount());
        for (int p = 0; p < built.pointCount(); p++) {
            assertThat(filtered.points().nodeIndexAt(p)).as("%s position %d", full.label(), p).isEqualTo(built.points().nodeIndexAt(p));
        }
        assertThat(filtered.collisions().size()).isEqualTo(built.collisions().size());
        for (int c = 0; c < built.collisions().size(); c++) {
            assertThat(filtered.collisions().position(c)).isEqualTo(built.collisions().position(c));
            assertThat(filtered.collisions().losersAt(c)).isEqualTo(built.collisions().losersAt(c));
        }
        for (int i = 0; i < subset.size(); i++) {
            assertThat(filtered.points().generatedPointsOf(i)).isEqualTo(built.points().generatedPointsOf(i));
        }
    }
}
