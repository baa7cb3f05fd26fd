package io.ketama.bench.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.bench.Keys;
import io.ketama.core.HashIdentity;
import io.ketama.core.HashStyle;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.RingVersion;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jol.info.GraphLayout;

/** The fleet fixtures measure what they claim, and the node table holds at most 64 bytes a node (JOL). */
class FleetFixturesTest {

    @Test
    void rowsAreDistinctIpv4NodesOfWeightsOneToTen() {
        List<Node<String>> nodes = FleetRow.nodes(10_000);
        assertThat(nodes).hasSize(10_000);
        assertThat(nodes.stream().map(Node::payload).distinct().count()).isEqualTo(10_000);
        Set<Integer> weights = new HashSet<>();
        nodes.forEach(n -> weights.add(n.weight()));
        assertThat(weights).containsExactlyInAnyOrder(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
        FleetRow row = FleetRow.of("10000-v2.16");
        assertThat(row.build().generatedPointCount()).isEqualTo(16 * row.totalWeight());
        assertThat(FleetRow.all()).hasSize(15).contains("65536-v1", "10-v2.16");
        assertThat(FleetFeatures.SETS).hasSize(64).doesNotHaveDuplicates();
    }

    @ParameterizedTest
    @ValueSource(strings = {"100-v1", "1000-v2.16"})
    void treeMapPeerAnswersAndFailsOverLikeOurRing(String id) {
        KetamaRing<String> ring = FleetRow.of(id).build();
        FleetTreeMap tree = new FleetTreeMap(ring);
        assertThat(tree.size()).isEqualTo(ring.pointCount());
        byte[][] keys = Keys.bytes(2);
        int[] ours = new int[3];
        String[] theirs = new String[3];
        for (int i = 0; i < 20_000; i++) {
            assertThat(tree.locate(keys[i])).isSameAs(ring.locate(keys[i]).payload());
            int n = ring.points().candidateIndices(keys[i], 0, keys[i].length, ours);
            assertThat(tree.candidates(keys[i], theirs)).isEqualTo(n).isEqualTo(3);
            for (int c = 0; c < n; c++) {
                assertThat(theirs[c]).isSameAs(ring.points().node(ours[c]).payload());
            }
        }
    }

    @Test
    void spymemcachedPeerPlacesKeysAsOurWeightedStyle() {
        FleetSpy.Input in = FleetSpy.input(100);
        KetamaNodeLocator locator = in.build();
        List<Node<String>> ours = new ArrayList<>();
        for (Node<String> n : FleetRow.nodes(100)) {
            String text = n.identity().host() + ":" + n.identity().port();
            ours.add(Node.of(HashStyle.SPYMEMCACHED_WEIGHTED.identity(text), n.weight(), text));
        }
        KetamaRing<String> ring = KetamaRing.build(HashStyle.SPYMEMCACHED_WEIGHTED, ours);
        String[] keys = Keys.strings(3);
        for (int i = 0; i < 5_000; i++) {
            MemcachedNode owner = locator.getPrimary(keys[i]);
            String address = owner.getSocketAddress().toString();
            assertThat(address.substring(address.indexOf('/') + 1)).isEqualTo(ring.locate(keys[i].getBytes(StandardCharsets.UTF_8)).payload());
        }
    }

    /** Issue 29, point 2: at most 64 bytes a node beyond the points, payload objects (the caller's) not counted. */
    @ParameterizedTest
    @ValueSource(ints = {100, 65_536})
    void theNodeTableHoldsAtMost64BytesANode(int count) {
        List<Node<String>> nodes = count == 100 ? loopback() : FleetRow.nodes(count);
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V2, 1, nodes);
        Object[] payloads = FleetMemory.payloads(ring.nodes());
        GraphLayout all = GraphLayout.parseInstance(ring);
        GraphLayout callers = GraphLayout.parseInstance(payloads);
        long whole = all.subtract(callers).totalSize();
        long points = GraphLayout.parseInstance(ring.points().storage()).totalSize();
        double perNode = (double) (whole - points) / count;
        assertThat(perNode).as("node table bytes per node").isLessThanOrEqualTo(64.0);
        // the payloads were in the ring's graph and were taken out
        assertThat(all.totalSize() - whole).isEqualTo(callers.totalSize()).isPositive();
    }

    @Test
    void aV2RingBuiltFromTheV1RingsNodesAddsNoNodeTable() {
        List<Node<String>> nodes = loopback();
        KetamaRing<String> v1 = KetamaRing.build(RingVersion.V1, 1, nodes);
        KetamaRing<String> v2 = KetamaRing.build(RingVersion.V2, 1, v1.nodes());
        Object[] payloads = FleetMemory.payloads(v1.nodes());
        long one = FleetMemory.without(v1, payloads) - GraphLayout.parseInstance(v1.points().storage()).totalSize();
        long both = FleetMemory.without(new Object[] {v1, v2}, payloads) - GraphLayout.parseInstance(v1.points().storage()).totalSize()
                - GraphLayout.parseInstance(v2.points().storage()).totalSize();
        // the second ring's own objects only: the ring, its node list view and its array of node references
        assertThat(both - one).isLessThan(4L * nodes.size() + 256);
    }

    private static List<Node<String>> loopback() {
        List<Node<String>> out = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            String a = "127.0.0." + i + ":6443";
            out.add(Node.of(HashIdentity.pingora(a), 1 + i % 10, a));
        }
        return out;
    }
}
