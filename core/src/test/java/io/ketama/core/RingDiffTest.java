package io.ketama.core;

import static io.ketama.core.RingAnalysisTest.firstPoint;
import static io.ketama.core.RingAnalysisTest.node;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class RingDiffTest {

    private static final long SPACE = 1L << 32;

    /** Independent oracle: sorted union of breakpoints, owners found by lookups at each right end. */
    static <T> Map<T, long[]> bruteForce(KetamaRing<T> a, KetamaRing<T> b) {
        TreeSet<Long> cuts = new TreeSet<>();
        for (int h : a.points().hashes()) {
            cuts.add(Integer.toUnsignedLong(h));
        }
        for (int h : b.points().hashes()) {
            cuts.add(Integer.toUnsignedLong(h));
        }
        Map<T, long[]> out = new HashMap<>();
        long prev = cuts.last() - SPACE;
        for (long cut : cuts) {
            T oa = a.locateHash((int) cut).payload();
            T ob = b.locateHash((int) cut).payload();
            if (!Objects.equals(oa, ob)) {
                out.computeIfAbsent(ob, x -> new long[2])[0] += cut - prev;
                out.computeIfAbsent(oa, x -> new long[2])[1] += cut - prev;
            }
            prev = cut;
        }
        return out;
    }

    @Test
    void addingASecondPointMovesExactlyItsArcByHand() {
        KetamaRing<String> one = KetamaRing.build(RingVersion.V2, 1, List.of(node("a:1", 1)));
        KetamaRing<String> two = KetamaRing.build(RingVersion.V2, 1, List.of(node("a:1", 1), node("b:1", 1)));
        long arcOfB = (firstPoint("b:1") - firstPoint("a:1")) & 0xFFFF_FFFFL; // (ha, hb] mod 2^32
        RingDiff<String> d = RingDiff.compare(one, two);
        assertThat(d.movedHashes()).isEqualTo(arcOfB);
        assertThat(d.movedFraction()).isEqualTo(arcOfB / (double) SPACE);
        assertThat(d.perNode()).containsExactly(
                Map.entry("a:1", new NodeChange(0, arcOfB)),
                Map.entry("b:1", new NodeChange(arcOfB, 0)));
        RingDiff<String> back = RingDiff.compare(two, one);
        assertThat(back.movedHashes()).isEqualTo(arcOfB);
        assertThat(back.perNode().get("b:1")).isEqualTo(new NodeChange(0, arcOfB));
    }

    @Test
    void aRingAgainstItselfMovesNothing() throws Exception {
        KetamaRing<String> r = KetamaRing.build(RingVersion.V1, TestData.nginxServers());
        RingDiff<String> d = RingDiff.compare(r, r);
        assertThat(d.movedHashes()).isZero();
        assertThat(d.perNode()).hasSize(9).allSatisfy((k, v) -> assertThat(v).isEqualTo(new NodeChange(0, 0)));
    }

    @Test
    void v1AgainstV2At16MatchesTheOracleAndBalances() throws Exception {
        List<Node<String>> servers = TestData.nginxServers();
        KetamaRing<String> v1 = KetamaRing.build(RingVersion.V1, servers);
        KetamaRing<String> v2 = KetamaRing.build(RingVersion.V2, 16, servers);
        RingDiff<String> d = RingDiff.compare(v1, v2);
        Map<String, long[]> oracle = bruteForce(v1, v2);
        long gained = 0;
        long lost = 0;
        for (Map.Entry<String, NodeChange> e : d.perNode().entrySet()) {
            long[] o = oracle.getOrDefault(e.getKey(), new long[2]);
            assertThat(e.getValue()).as(e.getKey()).isEqualTo(new NodeChange(o[0], o[1]));
            gained += e.getValue().gained();
            lost += e.getValue().lost();
        }
        assertThat(gained).isEqualTo(d.movedHashes());
        assertThat(lost).isEqualTo(d.movedHashes());
        // 16 of 160 points survive per weight unit: most keys move (about 8/9 for 9 nodes)
        assertThat(d.movedFraction()).isBetween(0.7, 0.99);
    }

    @Test
    void emptyRingsOwnNothing() {
        KetamaRing<String> empty = KetamaRing.build(RingVersion.V1, List.<Node<String>>of());
        List<Node<String>> nodes = new ArrayList<>(List.of(node("a:1", 1), node("b:1", 2)));
        KetamaRing<String> full = KetamaRing.build(RingVersion.V1, nodes);
        RingAnalysis<String> shares = RingAnalysis.of(full);

        RingDiff<String> grow = RingDiff.compare(empty, full);
        assertThat(grow.movedHashes()).isEqualTo(SPACE);
        assertThat(grow.movedFraction()).isEqualTo(1.0);
        assertThat(grow.perNode()).containsOnlyKeys("a:1", "b:1");
        assertThat(grow.perNode().get("b:1")).isEqualTo(new NodeChange(shares.shares().get(1).ownedHashes(), 0));

        RingDiff<String> shrink = RingDiff.compare(full, empty);
        assertThat(shrink.movedHashes()).isEqualTo(SPACE);
        assertThat(shrink.perNode().get("a:1")).isEqualTo(new NodeChange(0, shares.shares().get(0).ownedHashes()));

        RingDiff<String> none = RingDiff.compare(empty, empty);
        assertThat(none.movedHashes()).isZero();
        assertThat(none.perNode()).isEmpty();
    }

    @Test
    void ownersAreComparedByPayloadNotByNode() {
        // same payloads, different weights: only the arcs whose owner changes count
        KetamaRing<String> a = KetamaRing.build(RingVersion.V1, List.of(node("a:1", 1), node("b:1", 1)));
        KetamaRing<String> b = KetamaRing.build(RingVersion.V1, List.of(node("a:1", 1), node("b:1", 3)));
        RingDiff<String> d = RingDiff.compare(a, b);
        assertThat(d.perNode().get("b:1").lost()).isZero();
        assertThat(d.perNode().get("a:1").gained()).isZero();
        assertThat(d.perNode().get("b:1").gained()).isEqualTo(d.movedHashes()).isPositive();
        long[] o = bruteForce(a, b).get("b:1");
        assertThat(d.movedHashes()).isEqualTo(o[0]);
    }
}
