package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The libmemcached styles against what libmemcached 1.1.4 itself answered
 * ({@code memcached_generate_hash}), recorded by {@code core/src/test/vectors/record-libmemcached.sh}
 * into {@code ketama-family/libmemcached.vectors.gz}: four distributions, eight server sets each
 * (3 equal; 5 of unequal weights and ports other than 11211; 25 equal, where the weighted
 * {@code float} shares give 156 points; 25 on other ports; 25 of unequal weights; two hosts that
 * make one point, with equal and with unequal weights; one server), every one of 6,000 keys
 * (a third of them non-ASCII) and three failover candidates of the first 1,000 (the owners on
 * clients built without the candidates before). Three more server sets per distribution
 * ({@code eject-*}, loopback addresses where nothing listens) have their failover order recorded
 * by real auto-ejection in one client: each refused get ejected the owner and libmemcached rebuilt
 * its continuum, keeping the weighted continuum a heavier server had turned on even once every
 * heavier server is gone.
 */
class LibmemcachedVectorsTest {

    private static final List<String> KEYS = FamilyVectors.keys();
    private static final List<FamilyVectors.Config> CONFIGS = FamilyVectors.read("/ketama-family/libmemcached.vectors.gz");

    static HashStyle style(String recorded) {
        return HashStyle.parse("libmemcached-" + recorded, "style");
    }

    static KetamaRing<Integer> ring(HashStyle style, List<String> servers) {
        List<Node<Integer>> nodes = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            String s = servers.get(i);
            int w = s.lastIndexOf(':');
            nodes.add(Node.of(style.identity(s.substring(0, w)), Integer.parseInt(s.substring(w + 1)), i));
        }
        return KetamaRing.build(style, nodes);
    }

    @Test
    void everyKeyGoesWhereLibmemcachedSendsIt() {
        assertThat(CONFIGS).hasSize(44);
        long keys = 0;
        for (FamilyVectors.Config c : CONFIGS) {
            KetamaRing<Integer> ring = ring(style(c.style()), c.servers());
            assertThat(c.owners()).as(c.toString()).hasSize(KEYS.size());
            for (int k = 0; k < KEYS.size(); k++) {
                String key = KEYS.get(k);
                int expected = c.owners()[k];
                assertThat(ring.locate(key.getBytes(StandardCharsets.UTF_8)).payload()).as("%s key %d %s", c, k, key).isEqualTo(expected);
                assertThat(ring.locate(key).payload()).as("%s key %d %s (text)", c, k, key).isEqualTo(expected);
                keys++;
            }
        }
        assertThat(keys).isEqualTo(44L * 6000);
    }

    @Test
    void failoverIsTheOwnerOnTheRingWithoutTheCandidatesBefore() {
        for (FamilyVectors.Config c : CONFIGS) {
            KetamaRing<Integer> ring = ring(style(c.style()), c.servers());
            for (Map.Entry<Integer, int[]> e : c.failover().entrySet()) {
                byte[] key = KEYS.get(e.getKey()).getBytes(StandardCharsets.UTF_8);
                List<Integer> got = ring.candidates(key, 3).stream().map(Node::payload).toList();
                List<Integer> expected = java.util.Arrays.stream(e.getValue()).boxed().toList();
                assertThat(got).as("%s key %d", c, e.getKey()).isEqualTo(expected);
            }
            assertThat(c.failover()).as(c.toString()).hasSize(1000);
        }
    }

    @Test
    void pointCountsAsLibmemcachedComputesThem() {
        List<String> equal25 = CONFIGS.stream().filter(c -> c.name().equals("equal25")).findFirst().orElseThrow().servers();
        assertThat(ring(HashStyle.LIBMEMCACHED_WEIGHTED, equal25).points().generatedPointsOf(0)).isEqualTo(156);
        assertThat(ring(HashStyle.LIBMEMCACHED_KETAMA, equal25).points().generatedPointsOf(0)).isEqualTo(100);
    }

    @Test
    void theSharedPointGoesToTheServerAddedFirst() {
        for (FamilyVectors.Config c : CONFIGS) {
            if (!c.name().startsWith("shared") || c.name().equals("shared-weighted") && c.style().equals("ketama")) {
                continue; // the hosts share a one-at-a-time point; weighted, ketama's points are MD5 digests
            }
            KetamaRing<Integer> ring = ring(style(c.style()), c.servers());
            assertThat(ring.collidingPointCount()).as(c.toString()).isPositive();
            System.out.printf("%s: %d recorded keys land on a shared point%n", c, TwemproxyVectorsTest.keysOnSharedPoints(ring));
        }
    }
}
