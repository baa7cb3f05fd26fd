package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A ring's own nodes ({@link NodeTable}) are equal to the nodes it was built from, part by part. */
class NodeTableTest {

    private static List<Node<Object>> given() {
        List<Node<Object>> nodes = new ArrayList<>();
        nodes.add(new Node<>(HashIdentity.nginx("10.0.0.1:6443"), 3, Set.of("ssd", "eu"), "a"));
        nodes.add(new Node<>(HashIdentity.nginx("[2001:db8::1]:11211"), 1000, Set.of(), 42));
        nodes.add(new Node<>(HashIdentity.nginx("cache-a"), 1, Set.of("eu", "ssd"), null)); // empty port
        nodes.add(new Node<>(HashIdentity.of("h\0st", "1\u00002"), 2, Set.of("gpu"), "nul inside host and port"));
        nodes.add(new Node<>(HashIdentity.of("caf\u00e9.example", "8\u20ac"), 7, Set.of(), "non-ASCII"));
        nodes.add(new Node<>(HashIdentity.of("bad\uD800surrogate", "1"), 1, Set.of(), "unpaired surrogate: bytes say '?'"));
        nodes.add(new Node<>(HashIdentity.of("long-port", "9".repeat(300)), 1, Set.of(), "port of 300 bytes"));
        return nodes;
    }

    @Test
    void aRingsNodesAreEqualToTheGivenOnesPartByPart() {
        List<Node<Object>> given = given();
        for (RingVersion v : RingVersion.values()) {
            KetamaRing<Object> ring = KetamaRing.build(v, 4, given);
            assertThat(ring.nodes()).hasSize(given.size());
            for (int i = 0; i < given.size(); i++) {
                Node<Object> own = ring.nodes().get(i);
                Node<Object> g = given.get(i);
                assertThat(own).isNotSameAs(g).isEqualTo(g).hasSameHashCodeAs(g);
                assertThat(g).isEqualTo(own);
                assertThat(own.identity()).isEqualTo(g.identity());
                assertThat(own.identity().host()).isEqualTo(g.identity().host());
                assertThat(own.identity().port()).isEqualTo(g.identity().port());
                assertThat(own.identity().bytes()).isEqualTo(g.identity().bytes());
                assertThat(own.weight()).isEqualTo(g.weight());
                assertThat(own.features()).isEqualTo(g.features());
                assertThat(own.payload()).isSameAs(g.payload());
                assertThat(own.toString()).isEqualTo(g.toString());
                assertThat(ring.points().node(i)).isSameAs(own);
            }
        }
    }

    @Test
    void nodesDifferingInOnePartAreNotEqual() {
        Node<Object> base = given().get(0);
        KetamaRing<Object> ring = KetamaRing.build(RingVersion.V2, 4, List.of(base));
        Node<Object> own = ring.nodes().get(0);
        assertThat(own).isNotEqualTo(new Node<>(base.identity(), 4, base.features(), base.payload()))
                .isNotEqualTo(new Node<>(base.identity(), 3, Set.of("ssd"), base.payload()))
                .isNotEqualTo(new Node<>(base.identity(), 3, base.features(), "b"))
                .isNotEqualTo(new Node<>(HashIdentity.nginx("10.0.0.1:6444"), 3, base.features(), base.payload()));
    }

    @Test
    void equalFeatureSetsAreHeldOnce() {
        KetamaRing<Object> ring = KetamaRing.build(RingVersion.V1, 4, given());
        assertThat(ring.nodes().get(0).features()).isSameAs(ring.nodes().get(2).features()).containsExactly("eu", "ssd");
        assertThat(ring.nodes().get(1).features()).isEmpty();
    }

    @Test
    void ringsBuiltFromAnotherRingsNodesShareThem() {
        KetamaRing<Object> v1 = KetamaRing.build(RingVersion.V1, given());
        KetamaRing<Object> v2 = KetamaRing.build(RingVersion.V2, 16, v1.nodes());
        for (int i = 0; i < v1.nodeCount(); i++) {
            assertThat(v2.nodes().get(i)).isSameAs(v1.nodes().get(i));
        }
        // a subset keeps the same node objects, in its own order
        List<Node<Object>> subset = List.of(v1.nodes().get(4), v1.nodes().get(1));
        KetamaRing<Object> part = KetamaRing.build(RingVersion.V2, 16, subset);
        assertThat(part.nodes().get(0)).isSameAs(v1.nodes().get(4));
        assertThat(part.nodes().get(1)).isSameAs(v1.nodes().get(1));
        assertThat(part.generatedPointCount()).isEqualTo(16L * (7 + 1000));
        // and owners are those of a ring built from fresh nodes with the same parts
        KetamaRing<Object> fresh = KetamaRing.build(RingVersion.V2, 16, List.of(given().get(4), given().get(1)));
        assertThat(part.points().hashes()).isEqualTo(fresh.points().hashes());
        for (int p = 0; p < part.pointCount(); p++) {
            assertThat(part.points().nodeIndexAt(p)).isEqualTo(fresh.points().nodeIndexAt(p));
        }
    }

    @Test
    void aMixOfOwnAndGivenNodesMakesANewTableWithEqualNodes() {
        KetamaRing<Object> v1 = KetamaRing.build(RingVersion.V1, given());
        List<Node<Object>> mixed = new ArrayList<>(v1.nodes());
        Node<Object> extra = Node.of(HashIdentity.nginx("10.0.0.9:6443"), 2, "extra");
        mixed.add(extra);
        KetamaRing<Object> grown = KetamaRing.build(RingVersion.V1, mixed);
        assertThat(grown.nodes()).containsExactlyElementsOf(mixed);
        assertThat(grown.nodes().get(0)).isNotSameAs(v1.nodes().get(0));
    }

    @Test
    void pastTheNodeLimitABuildThrowsNamingTheLimit() {
        assertThat(KetamaRing.MAX_NODES).isEqualTo(16_777_216);
        List<Node<String>> tooMany = new java.util.AbstractList<>() {
            @Override
            public Node<String> get(int index) {
                throw new AssertionError("the count is checked before any node is read");
            }

            @Override
            public int size() {
                return KetamaRing.MAX_NODES + 1;
            }
        };
        assertThatThrownBy(() -> KetamaRing.build(RingVersion.V2, 1, tooMany))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a ring holds at most 16777216 nodes (node numbers are 24 bits), 16777217 were given");
    }
}
