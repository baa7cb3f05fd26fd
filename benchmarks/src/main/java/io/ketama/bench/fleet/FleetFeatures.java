package io.ketama.bench.fleet;

import io.ketama.core.Node;
import io.ketama.core.RingVersion;
import io.ketama.core.KetamaRing;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The feature-set scenario of the fleet curves: the nodes of a fleet row, each with each of 8 tags
 * {@code t0 … t7} independently with probability 1/2, and up to 64 feature sets in use: the 8
 * single tags (half the points each: walked), the 28 pairs (a quarter: at the materialisation
 * threshold) and 28 of the 56 triples (an eighth: materialised while the budget lasts).
 */
public final class FleetFeatures {

    public static final int TAGS = 8;
    /** The set counts of the curves. */
    public static final int[] SET_COUNTS = {1, 8, 64};
    public static final List<Set<String>> SETS = sets();

    private FleetFeatures() {
    }

    private static List<Set<String>> sets() {
        List<Set<String>> out = new ArrayList<>();
        for (int a = 0; a < TAGS; a++) {
            out.add(Set.of("t" + a));
        }
        for (int a = 0; a < TAGS; a++) {
            for (int b = a + 1; b < TAGS; b++) {
                out.add(Set.of("t" + a, "t" + b));
            }
        }
        for (int a = 0; a < TAGS && out.size() < 64; a++) {
            for (int b = a + 1; b < TAGS && out.size() < 64; b++) {
                for (int c = b + 1; c < TAGS && out.size() < 64; c++) {
                    if ((a + b + c) % 2 == 0) { // every other triple: 28 of 56
                        out.add(Set.of("t" + a, "t" + b, "t" + c));
                    }
                }
            }
        }
        if (out.size() != 64) {
            throw new IllegalStateException("expected 64 feature sets, made " + out.size());
        }
        return List.copyOf(out);
    }

    /** The first {@code count} sets. */
    public static List<Set<String>> sets(int count) {
        return SETS.subList(0, count);
    }

    /** The nodes of {@code nodes}-node fleet rows, tagged (seeded: the same tags every run). */
    public static List<Node<String>> nodes(int nodes) {
        Random rnd = new Random(nodes * 17L + 3);
        List<Node<String>> out = new ArrayList<>(nodes);
        for (Node<String> n : FleetRow.nodes(nodes)) {
            Set<String> tags = new HashSet<>();
            for (int t = 0; t < TAGS; t++) {
                if (rnd.nextBoolean()) {
                    tags.add("t" + t);
                }
            }
            out.add(new Node<>(n.identity(), n.weight(), tags, n.payload()));
        }
        return out;
    }

    public static KetamaRing<String> ring(FleetRow row) {
        return KetamaRing.build(row.version(), row.pointsPerWeight(), nodes(row.nodes()));
    }

    public static RingVersion version(String layout) {
        return FleetRow.of("1-" + layout).version();
    }
}
