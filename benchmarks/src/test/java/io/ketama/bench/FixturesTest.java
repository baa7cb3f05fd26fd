package io.ketama.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.spy.memcached.MemcachedNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The benchmark fixtures measure what they claim: the right rings, peers that answer correctly. */
class FixturesTest {

    @Test
    void rowsBuildTheRingsOfTheComparisonTable() {
        for (RingRow r : RingRow.values()) {
            List<Node<String>> nodes = r.nodes();
            assertThat(nodes).hasSize(r.nodeCount);
            assertThat(nodes.stream().map(n -> n.identity().port()).distinct()).containsExactly("6443");
            assertThat(nodes.stream().map(Node::weight).distinct()).containsExactly(r.weight());
            assertThat(RingRow.of(r.id)).isSameAs(r);
        }
        assertThat(RingRow.N100_V1.nodes().get(99).identity().host()).isEqualTo("127.0.0.100");
        KetamaRing<String> ring = RingRow.N2048_V2_16.build();
        assertThat(ring.generatedPointCount()).isEqualTo(2048L * 10 * 16);
    }

    @ParameterizedTest
    @ValueSource(strings = {"100-v1", "100-v2.16", "2048-v2.16"})
    void treeMapKetamaAnswersLikeOurRing(String row) {
        KetamaRing<String> ring = RingRow.of(row).build();
        TreeMapKetama<String> tree = new TreeMapKetama<>(ring);
        assertThat(tree.size()).isEqualTo(ring.pointCount());
        byte[][] keys = Keys.bytes(1);
        for (int i = 0; i < 20_000; i++) {
            assertThat(tree.locate(keys[i])).isSameAs(ring.locate(keys[i]));
        }
    }

    @Test
    void keysAreThirtyAlphanumericCharacters() {
        String[] keys = Keys.strings(30);
        assertThat(keys).hasSize(Keys.COUNT);
        assertThat(keys[0]).hasSize(30).matches("[A-Za-z0-9]{30}");
        assertThat(Set.of(keys).size()).isGreaterThan(Keys.COUNT - 10);
    }

    @Test
    void spymemcachedLocatorSpreadsKeysOverEveryNode() throws Exception {
        PeerBench.Spy spy = new PeerBench.Spy();
        spy.ring = "100-160";
        spy.setUp();
        Map<String, Integer> hits = new HashMap<>();
        for (String k : Keys.strings(7)) {
            MemcachedNode n = spy.locator.getPrimary(k);
            hits.merge(n.getSocketAddress().toString(), 1, Integer::sum);
        }
        assertThat(hits).hasSize(100);
        assertThat(hits.values()).allSatisfy(c -> assertThat(c).isBetween(Keys.COUNT / 400, Keys.COUNT / 25));
    }

    @Test
    void everyFeatureSetHasNodesAndParsesBack() {
        KetamaRing<String> ring = FeatureFixture.ring(io.ketama.core.RingVersion.V2, 16);
        for (Set<String> s : FeatureFixture.SETS) {
            assertThat(FeatureFixture.parse(FeatureFixture.label(s))).isEqualTo(s);
            assertThat(FeatureFixture.dedicated(ring, s).nodeCount()).isPositive().isLessThan(2048);
        }
    }
}
