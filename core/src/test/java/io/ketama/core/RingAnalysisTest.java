package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RingAnalysisTest {

    private static final long SPACE = 1L << 32;

    static Node<String> node(String address, int weight) {
        return Node.of(HashIdentity.nginx(address), weight, address);
    }

    /** Hash of a node's first point: crc32(host ‖ 0 ‖ port ‖ 00 00 00 00). */
    static long firstPoint(String address) {
        byte[] id = HashIdentity.nginx(address).bytes();
        byte[] withPrev = java.util.Arrays.copyOf(id, id.length + 4);
        return Integer.toUnsignedLong(Crc32.hash(withPrev));
    }

    @Test
    void oneNodeWithOnePointOwnsTheWholeCircle() {
        RingAnalysis<String> a = RingAnalysis.of(KetamaRing.build(RingVersion.V2, 1, List.of(node("a:1", 1))));
        assertThat(a.shares()).singleElement().satisfies(s -> {
            assertThat(s.ownedHashes()).isEqualTo(SPACE);
            assertThat(s.share()).isEqualTo(1.0);
            assertThat(s.ratio()).isEqualTo(1.0);
        });
        assertThat(a.coefficientOfVariation()).isZero();
        assertThat(a.maxOverMean()).isEqualTo(1.0);
        assertThat(a.points()).isEqualTo(1);
        assertThat(a.nodes()).isEqualTo(1);
    }

    @Test
    void twoPointsSplitTheCircleAtTheirHashesByHand() {
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V2, 1, List.of(node("a:1", 1), node("b:1", 1)));
        long ha = firstPoint("a:1");
        long hb = firstPoint("b:1");
        long lo = Math.min(ha, hb);
        long hi = Math.max(ha, hb);
        String low = ha < hb ? "a:1" : "b:1";
        String high = ha < hb ? "b:1" : "a:1";
        // the low point owns the wrap (hi, 2^32) ∪ [0, lo]; the high point owns (lo, hi]
        assertThat(ring.locateHash((int) lo).payload()).isEqualTo(low);
        assertThat(ring.locateHash((int) (lo + 1)).payload()).isEqualTo(high);
        assertThat(ring.locateHash((int) hi).payload()).isEqualTo(high);
        assertThat(ring.locateHash((int) (hi + 1)).payload()).isEqualTo(low);

        RingAnalysis<String> a = RingAnalysis.of(ring);
        NodeShare<String> sLow = a.shares().stream().filter(s -> s.node().payload().equals(low)).findFirst().orElseThrow();
        NodeShare<String> sHigh = a.shares().stream().filter(s -> s.node().payload().equals(high)).findFirst().orElseThrow();
        assertThat(sLow.ownedHashes()).isEqualTo(SPACE - hi + lo);
        assertThat(sHigh.ownedHashes()).isEqualTo(hi - lo);
        assertThat(sLow.weightShare()).isEqualTo(0.5);
        double rLow = (SPACE - hi + lo) / (double) SPACE / 0.5;
        double rHigh = (hi - lo) / (double) SPACE / 0.5;
        // mean ratio is exactly 1 with equal weights
        assertThat(a.coefficientOfVariation()).isCloseTo(Math.abs(rLow - rHigh) / 2, within(1e-12));
        assertThat(a.maxOverMean()).isCloseTo(Math.max(rLow, rHigh), within(1e-12));
    }

    @Test
    void ownedHashesAddUpToTheCircleAndMatchLookupsAtEveryArcEnd() throws Exception {
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V1, 160, TestData.nginxServers());
        RingAnalysis<String> a = RingAnalysis.of(ring);
        assertThat(a.shares().stream().mapToLong(NodeShare::ownedHashes).sum()).isEqualTo(SPACE);
        // independent check: every arc (h[i-1], h[i]] belongs to one node, found by lookups at both ends
        int[] h = ring.points().hashes();
        long[] owned = new long[ring.nodeCount()];
        for (int i = 0; i < h.length; i++) {
            long prev = i == 0 ? Integer.toUnsignedLong(h[h.length - 1]) - SPACE : Integer.toUnsignedLong(h[i - 1]);
            int owner = ring.nodeIndexForHash(h[i]);
            assertThat(ring.nodeIndexForHash((int) (prev + 1))).isEqualTo(owner);
            owned[owner] += Integer.toUnsignedLong(h[i]) - prev;
        }
        for (int i = 0; i < owned.length; i++) {
            assertThat(a.shares().get(i).ownedHashes()).isEqualTo(owned[i]);
            assertThat(a.shares().get(i).weightShare()).isEqualTo(1.0 / 9);
        }
        assertThat(a.points()).isEqualTo(ring.pointCount());
        assertThat(a.collidingPoints()).isEqualTo(9L * 100 * 160 - ring.pointCount());
        assertThat(a.bytes()).isEqualTo(ring.retainedBytes()).isPositive();
        assertThat(a.maxOverMean()).isGreaterThan(1.0);
    }

    @Test
    void emptyRingHasNoSharesAndZeroFigures() {
        RingAnalysis<String> a = RingAnalysis.of(KetamaRing.build(RingVersion.V1, List.<Node<String>>of()));
        assertThat(a.shares()).isEmpty();
        assertThat(a.coefficientOfVariation()).isZero();
        assertThat(a.maxOverMean()).isZero();
        assertThat(a.points()).isZero();
    }

    @Test
    void expectedCovOfEqualNodesIsTheClassicalFormula() {
        assertThat(RingAnalysis.expectedCov(9, 1600)).isCloseTo(Math.sqrt(8.0 / 14401), within(1e-15));
        assertThat(RingAnalysis.expectedCov(1, 16)).isZero();
        // the weighted formula reduces to it for equal weights
        assertThat(RingAnalysis.expectedCov(Collections.nCopies(9, 100), 16))
                .isCloseTo(RingAnalysis.expectedCov(9, 1600), within(1e-15));
        // worked example of the javadoc: weights {1, 2, 4} at 160 points per weight
        assertThat(RingAnalysis.expectedCov(List.of(1, 2, 4), 160))
                .isCloseTo(Math.sqrt(2 * (7 * 1.75 / 9) / 1121), within(1e-15))
                .isCloseTo(0.0493, within(5e-5));
    }

    @Test
    void pointsPerWeightForIsTheSmallestThatMeetsTheTarget() {
        List<Integer> hundred = Collections.nCopies(100, 1);
        assertThat(RingAnalysis.pointsPerWeightFor(0.05, hundred)).isEqualTo(396);
        assertThat(RingAnalysis.expectedCov(hundred, 396)).isLessThanOrEqualTo(0.05);
        assertThat(RingAnalysis.expectedCov(hundred, 395)).isGreaterThan(0.05);
        List<Integer> mixed = List.of(1, 2, 4, 8, 3, 3);
        for (double target : new double[] {0.3, 0.1, 0.05, 0.02, 0.011}) {
            int k = RingAnalysis.pointsPerWeightFor(target, mixed);
            assertThat(RingAnalysis.expectedCov(mixed, k)).isLessThanOrEqualTo(target);
            if (k > 1) {
                assertThat(RingAnalysis.expectedCov(mixed, k - 1)).isGreaterThan(target);
            }
        }
        assertThat(RingAnalysis.pointsPerWeightFor(10, hundred)).isEqualTo(1);
        assertThat(RingAnalysis.pointsPerWeightFor(0.01, List.of(5))).isEqualTo(1);
    }

    @Test
    void oneNodeMeetsEveryTargetWithOnePointEvenWhenTheTargetSquaredUnderflows() {
        // one node owns the whole circle: CoV 0 at any k; 1e-300 squared is 0 in double, 0 / 0 was NaN
        for (double target : new double[] {1e-300, Double.MIN_VALUE, 1e-9, 0.5}) {
            assertThat(RingAnalysis.pointsPerWeightFor(target, List.of(7))).as("target %s", target).isEqualTo(1);
        }
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> RingAnalysis.pointsPerWeightFor(0, List.of(1, 2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("target CoV").hasMessageContaining("> 0");
        assertThatThrownBy(() -> RingAnalysis.pointsPerWeightFor(Double.NaN, List.of(1, 2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("target CoV");
        assertThatThrownBy(() -> RingAnalysis.pointsPerWeightFor(0.1, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one weight");
        assertThatThrownBy(() -> RingAnalysis.pointsPerWeightFor(0.1, List.of(1, 0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(">= 1");
        assertThatThrownBy(() -> RingAnalysis.pointsPerWeightFor(1e-9, Collections.nCopies(1000, 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("larger target");
        assertThatThrownBy(() -> RingAnalysis.expectedCov(0, 16)).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * The weighted formula against measurement: over many rings of random identities with unequal
     * weights, the mean squared CoV lands near the predicted one (the formula is an expectation of
     * the squared CoV).
     */
    @Test
    void weightedFormulaPredictsMeasuredCov() {
        List<Integer> weights = List.of(1, 1, 2, 2, 3, 4, 5, 8, 1, 6, 2, 3);
        int k = 20;
        Random random = new Random(42);
        int rings = 200;
        double sumSquares = 0;
        for (int r = 0; r < rings; r++) {
            List<Node<String>> nodes = new ArrayList<>();
            for (int i = 0; i < weights.size(); i++) {
                nodes.add(node("h" + random.nextLong() + ":80", weights.get(i)));
            }
            double cov = RingAnalysis.of(KetamaRing.build(RingVersion.V2, k, nodes)).coefficientOfVariation();
            sumSquares += cov * cov;
        }
        double measured = Math.sqrt(sumSquares / rings);
        double expected = RingAnalysis.expectedCov(weights, k);
        double equalNodes = RingAnalysis.expectedCov(weights.size(), k * 38 / weights.size());
        assertThat(measured).isCloseTo(expected, within(expected * 0.1));
        // and the weights matter: the equal-node formula with the same points is clearly lower
        assertThat(equalNodes).isLessThan(expected * 0.85);
    }
}
