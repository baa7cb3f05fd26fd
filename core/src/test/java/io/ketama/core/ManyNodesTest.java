package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * 70,000 nodes: node indices never alias. pingora-ketama keeps a 16-bit node index and silently
 * hands node 65,536's points to node 0; here every node past index 65,535 owns its own points.
 */
class ManyNodesTest {

    private static final int NODES = 70_000;
    private static final int POINTS = 8;

    @Test
    void nodesPastIndex65535OwnTheirOwnPoints() {
        List<Node<String>> nodes = new ArrayList<>(NODES);
        for (int i = 0; i < NODES; i++) {
            String a = "10." + (i >>> 16) + "." + ((i >>> 8) & 255) + "." + (i & 255) + ":11211";
            nodes.add(Node.of(HashIdentity.nginx(a), 1, a));
        }
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V1, POINTS, nodes);

        // independent expectation: every point, computed with the JDK's CRC, kept by the first node in input order
        Map<Integer, Integer> winner = new HashMap<>(NODES * POINTS * 2);
        int[][] points = new int[NODES][POINTS];
        for (int i = 0; i < NODES; i++) {
            byte[] id = nodes.get(i).identity().bytes();
            int prev = 0;
            for (int j = 0; j < POINTS; j++) {
                prev = HashIdentityTest.chained(id, prev);
                points[i][j] = prev;
                winner.putIfAbsent(prev, i);
            }
        }
        assertThat(ring.pointCount()).isEqualTo(winner.size());

        RingAnalysis<String> analysis = RingAnalysis.of(ring);
        int checked = 0;
        for (int i = 65_536; i < NODES; i++) {
            int ownPoints = 0;
            for (int h : points[i]) {
                int owner = ring.nodeIndexForHash(h);
                assertThat(owner).as("point %08x of node %d", h, i).isEqualTo(winner.get(h));
                if (owner == i) {
                    ownPoints++;
                }
                checked++;
            }
            assertThat(ownPoints).as("node %d", i).isPositive();
            assertThat(analysis.shares().get(i).ownedHashes()).as("node %d", i).isPositive();
            assertThat(ring.node(ring.nodeIndexForHash(points[i][0])).payload()).isNotEqualTo(nodes.get(i - 65_536).payload());
        }
        assertThat(checked).isEqualTo((NODES - 65_536) * POINTS);
        assertThat(analysis.shares().stream().mapToLong(NodeShare::ownedHashes).sum()).isEqualTo(1L << 32);
    }
}
