package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Feature rings over memcached-style rings: the ring of a feature set is the full ring's points of
 * the nodes that have it (each node keeps its point count), whether walked or materialised, and
 * failover follows the style (spymemcached's probes, hashring's walk with equal points).
 */
class MemcachedFeatureRingsTest {

    private static List<Node<String>> nodes(HashStyle style, int n, long seed) {
        Random r = new Random(seed);
        List<Node<String>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String text = "10.1." + (i / 200) + "." + (i % 200 + 1) + ":11211";
            out.add(new Node<>(style.identity(text), 1 + r.nextInt(4), r.nextInt(8) == 0 ? Set.of("ssd") : Set.of(), text));
        }
        return out;
    }

    @Test
    void walkedAndMaterialisedAnswersAreTheRestrictedRingsForEveryStyle() {
        for (HashStyle style : List.of(HashStyle.SPYMEMCACHED, HashStyle.HASHRING)) {
            KetamaRing<String> ring = KetamaRing.build(style, nodes(style, 60, 3));
            FeatureRings<String> walked = FeatureRings.of(ring, 0);
            FeatureRings<String> materialised = FeatureRings.of(ring, Long.MAX_VALUE);
            List<Node<String>> ssd = new ArrayList<>();
            List<Integer> toFull = new ArrayList<>();
            for (int i = 0; i < ring.nodeCount(); i++) {
                if (ring.node(i).features().contains("ssd")) {
                    ssd.add(ring.node(i));
                    toFull.add(i);
                }
            }
            long[] counts = toFull.stream().mapToLong(ring::generatedPointsOf).toArray();
            KetamaRing<String> restricted = ring.restrict(ssd, counts);
            Set<String> required = Set.of("ssd");
            Random r = new Random(5);
            for (int k = 0; k < 20_000; k++) {
                byte[] key = ("key-" + r.nextInt()).getBytes(StandardCharsets.UTF_8);
                Node<String> expected = restricted.locate(key);
                assertThat(walked.locate(key, required)).isSameAs(expected);
                assertThat(materialised.locate(key, required)).isSameAs(expected);
                List<Node<String>> expectedOrder = list(restricted.failover(key));
                assertThat(list(walked.failover(key, required))).as("%s walked", style).isEqualTo(expectedOrder);
                assertThat(list(materialised.failover(key, required))).as("%s materialised", style).isEqualTo(expectedOrder);
            }
            assertThat(materialised.isMaterialised(required)).isTrue();
            assertThat(walked.isMaterialised(required)).isFalse();
        }
    }

    @Test
    void aSetWhoseNodesGotNoPointsAnswersNoNodeWalkedOrMaterialised() {
        // weight 1 of 1,001 gets floor(1/1001 x 40 x 2) = 0 digests from both clients: the ring of "ssd" is empty
        for (HashStyle style : List.of(HashStyle.SPYMEMCACHED, HashStyle.HASHRING)) {
            KetamaRing<String> ring = KetamaRing.build(style, List.of(
                    new Node<>(style.identity("10.1.0.1:11211"), 1, Set.of("ssd"), "light"),
                    new Node<>(style.identity("10.1.0.2:11211"), 1000, Set.of(), "heavy")));
            assertThat(ring.points().generatedPointsOf(0)).as(style.label()).isZero();
            for (FeatureRings<String> rings : List.of(FeatureRings.of(ring, 0), FeatureRings.of(ring, Long.MAX_VALUE))) {
                byte[] key = "key".getBytes(StandardCharsets.UTF_8);
                assertThat(rings.locate(key, Set.of("ssd"))).as("%s, budget %d", style, rings.memoryBudgetBytes()).isNull();
                assertThat(rings.nodeIndexForHash(ring.hashKey(key), Set.of("ssd"))).isEqualTo(-1);
                assertThat(list(rings.failover(key, Set.of("ssd")))).isEmpty();
                assertThat(rings.candidatesForHash(0, Set.of("ssd"), 2)).isEmpty();
            }
        }
    }

    private static <T> List<T> list(Iterator<T> it) {
        List<T> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
