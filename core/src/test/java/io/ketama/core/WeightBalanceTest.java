package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Weights: with 100 nodes at 160 points per weight unit, every node's exact share of the circle
 * lies within 4 standard deviations of its weight share, the deviation taken from the Beta model
 * ({@link RingAnalysis#expectedShareStdDev}).
 */
class WeightBalanceTest {

    private static List<Node<String>> nodes(int n, boolean weighted) {
        List<Node<String>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String a = "10.20." + (i / 250) + "." + (i % 250 + 1) + ":8080";
            out.add(Node.of(HashIdentity.nginx(a), weighted ? 1 + i % 5 : 1, a));
        }
        return out;
    }

    @Test
    void everyShareIsWithinFourSigmaOfItsWeightShare() {
        for (boolean weighted : new boolean[] {false, true}) {
            for (RingVersion version : RingVersion.values()) {
                List<Node<String>> nodes = nodes(100, weighted);
                long totalWeight = nodes.stream().mapToLong(Node::weight).sum();
                RingAnalysis<String> a = RingAnalysis.of(KetamaRing.build(version, 160, nodes));
                double worst = 0;
                for (NodeShare<String> s : a.shares()) {
                    double sigma = RingAnalysis.expectedShareStdDev(s.node().weight(), totalWeight, 160);
                    double z = Math.abs(s.share() - s.weightShare()) / sigma;
                    assertThat(z).as("%s %s weight %d: share %f vs %f", version, s.node().payload(), s.node().weight(),
                            s.share(), s.weightShare()).isLessThanOrEqualTo(4.0);
                    worst = Math.max(worst, z);
                }
                // heavier nodes get proportionally more of the circle
                if (weighted) {
                    double light = a.shares().stream().filter(s -> s.node().weight() == 1).mapToDouble(NodeShare::share).average().orElseThrow();
                    double heavy = a.shares().stream().filter(s -> s.node().weight() == 5).mapToDouble(NodeShare::share).average().orElseThrow();
                    assertThat(heavy / light).isBetween(4.5, 5.5);
                }
                assertThat(worst).isPositive();
                // and the CoV is of the size the theory predicts (within a factor 1.5 either way)
                List<Integer> weights = nodes.stream().map(Node::weight).toList();
                assertThat(a.coefficientOfVariation()).isBetween(RingAnalysis.expectedCov(weights, 160) / 1.5,
                        RingAnalysis.expectedCov(weights, 160) * 1.5);
            }
        }
    }
}
