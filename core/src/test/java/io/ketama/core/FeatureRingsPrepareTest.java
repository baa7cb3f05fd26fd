package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A rebuild can plan the feature sets in use before a new ring is put in use. */
class FeatureRingsPrepareTest {

    private static List<Node<Integer>> nodes(int count, long seed) {
        Random rnd = new Random(seed);
        List<Node<Integer>> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Set<String> tags = i % 10 == 0 ? Set.of("gpu", "ssd") : rnd.nextBoolean() ? Set.of("ssd") : Set.of();
            out.add(new Node<>(HashIdentity.of("10.0." + (i / 250) + "." + (i % 250), "6443"), 1 + rnd.nextInt(4), tags, i));
        }
        return out;
    }

    @Test
    void theSetsInUseArePlannedOnTheNextRingBeforeAnyLookup() {
        KetamaRing<Integer> before = KetamaRing.build(RingVersion.V2, 16, nodes(2_000, 1));
        FeatureRings<Integer> used = FeatureRings.of(before);
        assertThat(used.plannedSets()).isEmpty();
        used.locate("a", Set.of("ssd"));
        used.locate("b", Set.of("gpu"));
        used.locate("c", Set.of("ssd", "gpu"));
        used.locate("d", Set.of()); // the full ring: no plan
        assertThat(used.plannedSets()).containsExactly(Set.of("gpu", "ssd"), Set.of("gpu"), Set.of("ssd"));

        KetamaRing<Integer> after = KetamaRing.build(RingVersion.V2, 16, nodes(2_100, 1));
        FeatureRings<Integer> next = FeatureRings.of(after);
        next.prepare(used.plannedSets());
        assertThat(next.planCount()).isEqualTo(3);
        // the small sets (a tenth of the nodes) are materialised by the preparation, not by a lookup
        assertThat(next.isMaterialised(Set.of("gpu"))).isTrue();
        assertThat(next.isMaterialised(Set.of("ssd"))).isFalse();
        FeatureRings<Integer> fresh = FeatureRings.of(after);
        for (int i = 0; i < 2_000; i++) {
            String key = "key-" + i;
            for (Set<String> s : used.plannedSets()) {
                assertThat(next.locate(key, s)).isEqualTo(fresh.locate(key, s));
            }
        }
    }

    @Test
    void preparationKeepsRecencyAndGivesTheBudgetToTheMostRecentlyUsedSets() {
        List<Node<Integer>> nodes = new ArrayList<>();
        Random rnd = new Random(8);
        for (int i = 0; i < 2_000; i++) {
            // 8 disjoint groups of a tenth of the nodes each: every group's set qualifies for a ring
            Set<String> tags = i % 10 < 8 ? Set.of("g" + (i % 10)) : Set.of();
            nodes.add(new Node<>(HashIdentity.of("10.1." + (i / 250) + "." + (i % 250), "6443"), 1 + rnd.nextInt(4), tags, i));
        }
        KetamaRing<Integer> ring = KetamaRing.build(RingVersion.V2, 16, nodes);
        List<Set<String>> mostRecentFirst = new ArrayList<>();
        for (int g = 0; g < 8; g++) {
            mostRecentFirst.add(Set.of("g" + g));
        }
        long largest = 0;
        for (Set<String> s : mostRecentFirst) {
            FeatureRings<Integer> one = FeatureRings.of(ring, Long.MAX_VALUE);
            one.prepare(List.of(s));
            largest = Math.max(largest, one.materialisedBytes());
        }
        long budget = largest * 7 / 2; // room for three rings, not four
        FeatureRings<Integer> next = FeatureRings.of(ring, budget);
        next.prepare(mostRecentFirst);

        assertThat(next.plannedSets()).isEqualTo(mostRecentFirst);
        assertThat(next.materialisedCount()).isEqualTo(3);
        for (int g = 0; g < 8; g++) {
            assertThat(next.isMaterialised(Set.of("g" + g))).as("g%d", g).isEqualTo(g < 3);
        }
        assertThat(next.materialisedBytes()).isLessThanOrEqualTo(budget);
        // a set left out walks: its first lookups build nothing on the request path
        for (int i = 0; i < 100; i++) {
            next.locate("key-" + i, Set.of("g7"));
        }
        assertThat(next.isMaterialised(Set.of("g7"))).isFalse();
        assertThat(next.materialisedCount()).isEqualTo(3);
        FeatureRings<Integer> fresh = FeatureRings.of(ring, 0);
        for (int i = 0; i < 5_000; i++) {
            String key = "key-" + i;
            for (Set<String> s : mostRecentFirst) {
                assertThat(next.locate(key, s)).isEqualTo(fresh.locate(key, s));
            }
        }
    }
}
