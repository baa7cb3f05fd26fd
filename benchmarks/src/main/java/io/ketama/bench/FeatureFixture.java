package io.ketama.bench;

import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.RingVersion;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The feature scenario: the 2048-node ring of weight 10 where each node has some of 4 tags
 * (independently, with probabilities 0.6, 0.5, 0.3 and 0.15), and 8 feature sets whose nodes hold
 * from 60 % down to about 7 % of the points.
 */
public final class FeatureFixture {

    public static final String[] TAGS = {"ssd", "eu", "pci", "gpu"};
    private static final double[] ODDS = {0.6, 0.5, 0.3, 0.15};
    public static final List<Set<String>> SETS = List.of(
            Set.of("ssd"), Set.of("eu"), Set.of("pci"), Set.of("gpu"),
            Set.of("ssd", "eu"), Set.of("ssd", "pci"), Set.of("eu", "gpu"), Set.of("ssd", "eu", "pci"));

    private FeatureFixture() {
    }

    public static List<Node<String>> nodes() {
        Random rnd = new Random(4);
        List<Node<String>> out = new ArrayList<>();
        for (Node<String> n : RingRow.randomNodes(2048, 10, 2048)) {
            Set<String> tags = new HashSet<>();
            for (int t = 0; t < TAGS.length; t++) {
                if (rnd.nextDouble() < ODDS[t]) {
                    tags.add(TAGS[t]);
                }
            }
            out.add(new Node<>(n.identity(), n.weight(), tags, n.payload()));
        }
        return out;
    }

    public static KetamaRing<String> ring(RingVersion version, int pointsPerWeight) {
        return KetamaRing.build(version, pointsPerWeight, nodes());
    }

    public static KetamaRing<String> dedicated(KetamaRing<String> ring, Set<String> required) {
        List<Node<String>> chosen = new ArrayList<>();
        for (Node<String> n : ring.nodes()) {
            if (n.hasAll(required)) {
                chosen.add(n);
            }
        }
        return KetamaRing.build(ring.version(), ring.pointsPerWeight(), chosen);
    }

    /** "ssd+eu" style label of a set, for parameters and reports. */
    public static String label(Set<String> set) {
        List<String> ordered = new ArrayList<>();
        for (String t : TAGS) {
            if (set.contains(t)) {
                ordered.add(t);
            }
        }
        return String.join("+", ordered);
    }

    public static Set<String> parse(String label) {
        for (Set<String> s : SETS) {
            if (label(s).equals(label)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown feature set '" + label + "'");
    }
}
