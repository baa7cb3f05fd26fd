package io.ketama.bench.fleet;

import io.ketama.core.HashIdentity;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.RingVersion;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * One ring of the fleet curves: {@code nodes} distinct random IPv4 addresses on port 6443, each of
 * a random weight from 1 to 10 (seeded by the node count, so every run and every fork measures the
 * same ring), as v1 (160 points per weight), v2 with 160 or v2 with 16. The JMH parameter value is
 * {@code "<nodes>-<version>"}: {@code 65536-v1}, {@code 1000-v2.16}.
 *
 * <p>Expected sizes: the weights average 5.5, so a ring has about {@code 5.5 × k × nodes} points
 * ({@code k} = points per weight): 88,000 points per 100 nodes at 160, 8,800 at 16; 57.7 M points
 * for 65,536 nodes at 160.
 */
public record FleetRow(String id, int nodes, RingVersion version, int pointsPerWeight) {

    /** The node counts of the curves. */
    public static final int[] SIZES = {10, 100, 1_000, 10_000, 65_536};
    /** The ring layouts of the curves, as written in a row id. */
    public static final String[] LAYOUTS = {"v1", "v2.160", "v2.16"};
    /** Largest weight drawn. */
    public static final int MAX_WEIGHT = 10;

    public static FleetRow of(String id) {
        int dash = id.indexOf('-');
        if (dash < 0) {
            throw new IllegalArgumentException("fleet row '" + id + "' is not <nodes>-<v1|v2.160|v2.16>");
        }
        int nodes = Integer.parseInt(id.substring(0, dash));
        return switch (id.substring(dash + 1)) {
            case "v1" -> new FleetRow(id, nodes, RingVersion.V1, 160);
            case "v2.160" -> new FleetRow(id, nodes, RingVersion.V2, 160);
            case "v2.16" -> new FleetRow(id, nodes, RingVersion.V2, 16);
            default -> throw new IllegalArgumentException("fleet row '" + id + "': layout must be v1, v2.160 or v2.16");
        };
    }

    /** Every row id, sizes ascending, layouts in {@link #LAYOUTS} order. */
    public static List<String> all() {
        List<String> out = new ArrayList<>();
        for (int n : SIZES) {
            for (String l : LAYOUTS) {
                out.add(n + "-" + l);
            }
        }
        return out;
    }

    public List<Node<String>> nodeList() {
        return nodes(nodes);
    }

    public KetamaRing<String> build() {
        return KetamaRing.build(version, pointsPerWeight, nodeList());
    }

    /** Sum of the weights of the nodes of this row. */
    public long totalWeight() {
        long w = 0;
        for (Node<String> n : nodeList()) {
            w += n.weight();
        }
        return w;
    }

    private static final java.util.Map<Integer, List<Node<String>>> CACHE = new java.util.concurrent.ConcurrentHashMap<>();

    /** {@code count} distinct random IPv4 nodes on port 6443, weights 1 to 10, payload the address text. */
    public static List<Node<String>> nodes(int count) {
        return CACHE.computeIfAbsent(count, FleetRow::make);
    }

    private static List<Node<String>> make(int count) {
        Random rnd = new Random(count * 31L + 7);
        Set<String> seen = new HashSet<>();
        List<Node<String>> out = new ArrayList<>(count);
        while (out.size() < count) {
            String a = rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + rnd.nextInt(256) + ":6443";
            if (seen.add(a)) {
                out.add(Node.of(HashIdentity.pingora(a), 1 + rnd.nextInt(MAX_WEIGHT), a));
            }
        }
        return List.copyOf(out);
    }
}
