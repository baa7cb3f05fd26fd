package io.ketama.bench;

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
 * The rings pingora-ketama 0.8.0 was measured on, one per row of the comparison table: 100 nodes
 * {@code 127.0.0.{1..100}:6443} of weight 1 and 2048 random IPv4 nodes on port 6443 of weight 10,
 * each as v1, v2 with 160 and v2 with 16 points per weight. The JMH parameter value is {@link #id}.
 */
public enum RingRow {
    N100_V1("100-v1", 100, RingVersion.V1, 160, 440e3, 87, 127_992),
    N100_V2_160("100-v2.160", 100, RingVersion.V2, 160, 690e3, 92, 95_994),
    N100_V2_16("100-v2.16", 100, RingVersion.V2, 16, 52e3, 75, 9_600),
    N2048_V1("2048-v1", 2048, RingVersion.V1, 160, 136e6, 737, 26_204_184),
    N2048_V2_160("2048-v2.160", 2048, RingVersion.V2, 160, 173e6, 660, 19_653_138),
    N2048_V2_16("2048-v2.16", 2048, RingVersion.V2, 16, 14e6, 141, 1_966_026);

    /** All {@link #id}s, for messages (JMH's {@code @Param} lists them one by one). */
    public static final String ALL = "100-v1, 100-v2.160, 100-v2.16, 2048-v1, 2048-v2.160, 2048-v2.16";

    public final String id;
    public final int nodeCount;
    public final RingVersion version;
    public final int pointsPerWeight;
    /** pingora-ketama 0.8.0 on the same machine class (issue 3): build time in ns, ns per lookup, bytes. */
    public final double rustBuildNs;
    public final double rustLookupNs;
    public final long rustBytes;

    RingRow(String id, int nodeCount, RingVersion version, int pointsPerWeight, double rustBuildNs, double rustLookupNs, long rustBytes) {
        this.id = id;
        this.nodeCount = nodeCount;
        this.version = version;
        this.pointsPerWeight = pointsPerWeight;
        this.rustBuildNs = rustBuildNs;
        this.rustLookupNs = rustLookupNs;
        this.rustBytes = rustBytes;
    }

    public static RingRow of(String id) {
        for (RingRow r : values()) {
            if (r.id.equals(id)) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown ring row '" + id + "'; allowed: " + ALL);
    }

    public int weight() {
        return nodeCount == 100 ? 1 : 10;
    }

    public List<Node<String>> nodes() {
        return nodeCount == 100 ? loopbackNodes() : randomNodes(nodeCount, 10, 2048);
    }

    public KetamaRing<String> build() {
        return KetamaRing.build(version, pointsPerWeight, nodes());
    }

    /** {@code 127.0.0.{1..100}:6443}, weight 1. */
    static List<Node<String>> loopbackNodes() {
        List<Node<String>> out = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            String a = "127.0.0." + i + ":6443";
            out.add(Node.of(HashIdentity.pingora(a), 1, a));
        }
        return out;
    }

    /** {@code count} distinct random IPv4 addresses (seeded, so every run measures the same ring) on port 6443. */
    public static List<Node<String>> randomNodes(int count, int weight, long seed) {
        Random rnd = new Random(seed);
        Set<String> seen = new HashSet<>();
        List<Node<String>> out = new ArrayList<>();
        while (out.size() < count) {
            String a = rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + rnd.nextInt(256) + ":6443";
            if (seen.add(a)) {
                out.add(Node.of(HashIdentity.pingora(a), weight, a));
            }
        }
        return out;
    }
}
