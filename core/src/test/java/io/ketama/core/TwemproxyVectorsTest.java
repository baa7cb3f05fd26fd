package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The twemproxy styles against what twemproxy 0.5.0 (Debian's {@code nutcracker}) itself did,
 * recorded by {@code core/src/test/vectors/record-twemproxy.sh} into
 * {@code ketama-family/twemproxy.vectors.gz}: every one of 6,000 keys (a third non-ASCII) sent as
 * a {@code get} through each of 16 pools ({@code fnv1a_64} and {@code md5}: 3 equal servers; 5 of
 * unequal weights on ports other than 11211; 25 equal, where the {@code float} shares give 156
 * points each; 25 on other ports; 25 of unequal weights; named servers, two of whose names make
 * one point; those two alone; a {@code hash_tag} of {@code {}}), and answered by the fake server
 * twemproxy routed it to. In pools with {@code auto_eject_hosts} servers were then made to fail one
 * by one and every key routed again: the rebuilt rings, and the failover order they make.
 */
class TwemproxyVectorsTest {

    private static final List<String> KEYS = FamilyVectors.keys();
    private static final List<FamilyVectors.Config> CONFIGS = FamilyVectors.read("/ketama-family/twemproxy.vectors.gz");

    private static HashStyle style(FamilyVectors.Config c) {
        return HashStyle.parse(c.style(), "style");
    }

    /** {@code host:port:weight [name]} as twemproxy reads it. */
    static Node<Integer> node(HashStyle style, String server, int payload) {
        String address = server.split(" ")[0];
        int weight = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
        return Node.of(style.identity(server), weight, payload);
    }

    private static KetamaRing<Integer> ring(FamilyVectors.Config c, List<Integer> without) {
        HashStyle style = style(c);
        List<Node<Integer>> nodes = new ArrayList<>();
        for (int i = 0; i < c.servers().size(); i++) {
            if (!without.contains(i)) {
                nodes.add(node(style, c.servers().get(i), i));
            }
        }
        return KetamaRing.build(style, HashStyle.Options.DEFAULTS.withHashTag(c.hashTag()), nodes);
    }

    private static void assertOwners(FamilyVectors.Config c, KetamaRing<Integer> ring, int[] owners, String what) {
        assertThat(owners).as(c + " " + what).hasSize(KEYS.size());
        for (int k = 0; k < KEYS.size(); k++) {
            String key = KEYS.get(k);
            assertThat(ring.locate(key.getBytes(StandardCharsets.UTF_8)).payload()).as("%s %s key %d %s", c, what, k, key).isEqualTo(owners[k]);
            assertThat(ring.locate(key).payload()).as("%s %s key %d %s (text)", c, what, k, key).isEqualTo(owners[k]);
        }
    }

    @Test
    void everyKeyGoesWhereTwemproxySentIt() {
        assertThat(CONFIGS).hasSize(16);
        for (FamilyVectors.Config c : CONFIGS) {
            assertOwners(c, ring(c, List.of()), c.owners(), "all servers");
        }
    }

    @Test
    void afterEjectionsEveryKeyGoesWhereTheRebuiltPoolSentIt() {
        int ejections = 0;
        for (FamilyVectors.Config c : CONFIGS) {
            for (Map.Entry<List<Integer>, int[]> e : c.afterEjection().entrySet()) {
                assertOwners(c, ring(c, e.getKey()), e.getValue(), "without " + e.getKey());
                ejections++;
            }
        }
        assertThat(ejections).isEqualTo(2 * (2 + 2 + 2 + 2 + 2 + 1));
    }

    /** A key whose first candidates are the ejected servers, in ejection order, has the rebuilt pool's owner next. */
    @Test
    void failoverOrderIsTheOwnerAfterEachEjection() {
        int checked = 0;
        for (FamilyVectors.Config c : CONFIGS) {
            KetamaRing<Integer> ring = ring(c, List.of());
            for (Map.Entry<List<Integer>, int[]> e : c.afterEjection().entrySet()) {
                List<Integer> ejected = e.getKey();
                for (int k = 0; k < KEYS.size(); k++) {
                    if (c.owners()[k] != ejected.get(0)) {
                        continue; // its first candidate is not the first server ejected
                    }
                    List<Integer> candidates = ring.candidates(KEYS.get(k).getBytes(StandardCharsets.UTF_8), ejected.size() + 1)
                            .stream().map(Node::payload).toList();
                    if (candidates.subList(0, ejected.size()).equals(ejected)) {
                        assertThat(candidates.get(ejected.size())).as("%s key %d after %s", c, k, ejected).isEqualTo(e.getValue()[k]);
                        checked++;
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(1000);
    }

    @Test
    void pointCountsAndTiesAsTwemproxyMakesThem() {
        int sharedKeys = 0;
        for (FamilyVectors.Config c : CONFIGS) {
            KetamaRing<Integer> ring = ring(c, List.of());
            if (c.name().equals("equal25")) {
                assertThat(ring.points().generatedPointsOf(0)).isEqualTo(156);
            }
            if (c.name().equals("shared") || c.name().equals("named")) {
                assertThat(ring.collidingPointCount()).as(c.toString()).isPositive();
                int on = keysOnSharedPoints(ring);
                System.out.printf("%s: %d recorded keys land on a shared point%n", c, on);
                sharedKeys += on;
            }
        }
        assertThat(sharedKeys).as("recorded keys whose owner proves the tie rule").isPositive();
    }

    /** How many of the keys land on a point several servers made: the keys whose recorded owner proves the tie rule. */
    static int keysOnSharedPoints(KetamaRing<Integer> ring) {
        int n = 0;
        for (String key : KEYS) {
            int pos = ring.points().position(ring.hashKey(key.getBytes(StandardCharsets.UTF_8)));
            if (ring.collisions().at(pos) >= 0) {
                n++;
            }
        }
        return n;
    }
}
