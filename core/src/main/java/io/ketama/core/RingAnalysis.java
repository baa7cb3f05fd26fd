package io.ketama.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Exact balance figures of one ring, and the theory that predicts them.
 *
 * <h2>Measured</h2>
 * Every share is computed from the arcs, not sampled: the point at {@code h[i]} owns the unsigned
 * hashes {@code (h[i−1], h[i]]}, point 0 also owns the wrap {@code (h[last], 2^32) ∪ [0, h[0]]},
 * so the owned hashes of all nodes add up to exactly 2^32. A node's {@link NodeShare#ratio() ratio}
 * is its share of the circle divided by its share of the total weight; the
 * {@link #coefficientOfVariation() coefficient of variation} and {@link #maxOverMean() max/mean}
 * are taken over the ratios of all nodes (nodes whose every point lost a collision count with
 * ratio 0).
 *
 * <h2>Expected: the Dirichlet model</h2>
 * Model the {@code M} points of a ring as independent uniform positions on the circle. The
 * {@code M} arcs between them are then Dirichlet(1, …, 1), so a node with {@code m} of the points
 * owns a share {@code s ~ Beta(m, M − m)}: mean {@code p = m/M}, variance
 * {@code p(1 − p)/(M + 1)}, and two nodes' shares have covariance {@code −p_i p_j/(M + 1)}.
 *
 * <p>With {@code k} points per weight unit, node {@code i} of weight {@code w_i} has
 * {@code m_i = k w_i} points, {@code M = kW} with {@code W = Σ w_i}, and {@code p_i = w_i/W} is
 * exactly its weight share. Its ratio {@code r_i = s_i/p_i} has mean 1, variance
 * {@code (1/p_i − 1)/(M + 1)}, and {@code Cov(r_i, r_j) = −1/(M + 1)}. The expected population
 * variance of the ratios around their own mean is
 * <pre>
 *   E[(1/N) Σ (r_i − r̄)²] = (1/N) Σ Var r_i − Var r̄ = (N − 1) Σ(1/p_i) / (N² (M + 1))
 * </pre>
 * and, since {@code Σ 1/p_i = W Σ 1/w_i},
 * <pre>
 *   CoV ≈ √( (N − 1) · A / (kW + 1) ),   A = W · Σ(1/w_i) / N²  (mean weight ÷ harmonic mean weight, ≥ 1)
 * </pre>
 * (the square root of the expected squared CoV; collisions, about {@code M²/2^33} points, are
 * ignored). With equal weights {@code A = 1} and {@code kW = Nk}, which is the classical
 * {@code √((N − 1)/(Nk + 1))}. Numbers: 9 nodes of weight 100 at 16 points per weight give
 * {@code √(8/14401) ≈ 0.0236}; weights {1, 2, 4} at 160 give {@code A = 7 · 1.75/9 ≈ 1.361} and
 * {@code √(2 · 1.361/1121) ≈ 0.0493}, against {@code √(2/1121) ≈ 0.0422} for 3 equal nodes
 * sharing the same 1,120 points: unequal weights cost balance because a light node has few points
 * and its ratio varies most.
 *
 * <p>Immutable; computed once in {@link #of(KetamaRing)}.
 *
 * @param <T> payload type of the ring's nodes
 */
public final class RingAnalysis<T> {

    /** The formula {@link #expectedCov(List, int)} and {@link #pointsPerWeightFor(double, List)} use, as text. */
    public static final String EXPECTED_COV_FORMULA =
            "CoV = sqrt((N-1) * A / (k*W + 1)), A = W * sum(1/w_i) / N^2, W = sum(w_i), k = points per weight;"
                    + " for N equal nodes with k points each: sqrt((N-1)/(N*k+1))";

    private final KetamaRing<T> ring;
    private final List<NodeShare<T>> shares;
    private final double cov;
    private final double maxOverMean;

    private RingAnalysis(KetamaRing<T> ring, List<NodeShare<T>> shares, double cov, double maxOverMean) {
        this.ring = ring;
        this.shares = shares;
        this.cov = cov;
        this.maxOverMean = maxOverMean;
    }

    /** Analyses {@code ring} exactly, in one pass over its points. */
    public static <T> RingAnalysis<T> of(KetamaRing<T> ring) {
        Objects.requireNonNull(ring, "ring");
        int n = ring.nodeCount();
        long[] owned = new long[n];
        ring.table().addArcs(owned);
        long totalWeight = 0;
        for (Node<T> node : ring.nodes()) {
            totalWeight += node.weight();
        }
        List<NodeShare<T>> shares = new ArrayList<>(n);
        double sum = 0;
        double max = 0;
        for (int i = 0; i < n; i++) {
            Node<T> node = ring.node(i);
            NodeShare<T> s = new NodeShare<>(node, owned[i], owned[i] / (double) HashSpace.SIZE,
                    node.weight() / (double) totalWeight);
            shares.add(s);
            sum += s.ratio();
            max = Math.max(max, s.ratio());
        }
        double cov = 0;
        double maxOverMean = 0;
        if (n > 0 && sum > 0) {
            double mean = sum / n;
            double squares = 0;
            for (NodeShare<T> s : shares) {
                double d = s.ratio() - mean;
                squares += d * d;
            }
            cov = Math.sqrt(squares / n) / mean;
            maxOverMean = max / mean;
        }
        return new RingAnalysis<>(ring, Collections.unmodifiableList(shares), cov, maxOverMean);
    }

    /** The ring analysed. */
    public KetamaRing<T> ring() {
        return ring;
    }

    /** One entry per node, in the ring's node order; the owned hashes add up to 2^32 unless the ring is empty. */
    public List<NodeShare<T>> shares() {
        return shares;
    }

    /** Population standard deviation of the nodes' ratios divided by their mean; 0 for a ring without points. */
    public double coefficientOfVariation() {
        return cov;
    }

    /** The largest ratio divided by the mean ratio: how overloaded the busiest node is; 0 for a ring without points. */
    public double maxOverMean() {
        return maxOverMean;
    }

    /** Points lost to hash collisions. */
    public long collidingPoints() {
        return ring.collidingPointCount();
    }

    /** Points on the ring. */
    public int points() {
        return ring.pointCount();
    }

    /** Nodes of the ring, with or without points. */
    public int nodes() {
        return ring.nodeCount();
    }

    /** Bytes of ring storage ({@link KetamaRing#retainedBytes()}). */
    public long bytes() {
        return ring.retainedBytes();
    }

    /** Expected CoV of {@code nodes} equal nodes with {@code pointsEach} points each: {@code √((N−1)/(Nk+1))}. */
    public static double expectedCov(int nodes, int pointsEach) {
        if (nodes < 1 || pointsEach < 1) {
            throw new IllegalArgumentException("nodes and points each must be >= 1, were " + nodes + " and " + pointsEach);
        }
        return Math.sqrt((nodes - 1) / ((double) nodes * pointsEach + 1));
    }

    /**
     * Expected CoV of share ÷ weight share for nodes of {@code weights} with {@code pointsPerWeight}
     * points per weight unit: {@link #EXPECTED_COV_FORMULA} (derived in the class comment).
     *
     * @throws IllegalArgumentException when {@code weights} is empty, a weight is below 1, or {@code pointsPerWeight < 1}
     */
    public static double expectedCov(List<Integer> weights, int pointsPerWeight) {
        if (pointsPerWeight < 1) {
            throw new IllegalArgumentException("points per weight must be >= 1, was " + pointsPerWeight);
        }
        WeightSums w = WeightSums.of(weights);
        return Math.sqrt(w.numerator() / ((double) pointsPerWeight * w.total() + 1));
    }

    /**
     * Standard deviation of one node's share in the Beta model: {@code √(p(1 − p)/(kW + 1))} with
     * {@code p = weight/totalWeight}.
     */
    public static double expectedShareStdDev(int weight, long totalWeight, int pointsPerWeight) {
        if (weight < 1 || totalWeight < weight || pointsPerWeight < 1) {
            throw new IllegalArgumentException("need 1 <= weight <= total weight and points per weight >= 1, were "
                    + weight + ", " + totalWeight + ", " + pointsPerWeight);
        }
        double p = weight / (double) totalWeight;
        return Math.sqrt(p * (1 - p) / ((double) pointsPerWeight * totalWeight + 1));
    }

    /**
     * The smallest points per weight unit {@code k >= 1} whose {@link #expectedCov(List, int)
     * expected CoV} is at most {@code targetCov}: {@code k = ⌈((N − 1) A / target² − 1) / W⌉}.
     * For 100 equal nodes and a target of 0.05 this is 396 ({@code √(99/39601) ≈ 0.049999}).
     *
     * @throws IllegalArgumentException when the target is not a finite number > 0, the weights are
     *                                  invalid, or no ring that fits an int count of points per weight reaches the target
     */
    public static int pointsPerWeightFor(double targetCov, List<Integer> weights) {
        if (!(targetCov > 0) || Double.isInfinite(targetCov)) {
            throw new IllegalArgumentException("target CoV must be a finite number > 0, was " + targetCov);
        }
        WeightSums w = WeightSums.of(weights);
        if (w.numerator() == 0) {
            // one node: CoV 0 at every k (and 0 / target² would be NaN where target² underflows to 0)
            return 1;
        }
        double k = Math.ceil((w.numerator() / (targetCov * targetCov) - 1) / w.total());
        if (k > Integer.MAX_VALUE - 1) {
            throw new IllegalArgumentException("target CoV " + targetCov + " needs more than " + Integer.MAX_VALUE
                    + " points per weight; choose a larger target");
        }
        int best = (int) Math.max(1, k);
        // The closed form is exact up to rounding: settle the last step against the formula itself.
        while (best > 1 && expectedCov(weights, best - 1) <= targetCov) {
            best--;
        }
        while (expectedCov(weights, best) > targetCov) {
            best++;
        }
        return best;
    }

    /** {@code W = Σ w_i} and {@code (N − 1) · A = (N − 1) · W · Σ(1/w_i) / N²}. */
    private record WeightSums(long total, double numerator) {
        static WeightSums of(List<Integer> weights) {
            Objects.requireNonNull(weights, "weights");
            if (weights.isEmpty()) {
                throw new IllegalArgumentException("need at least one weight");
            }
            long total = 0;
            double inverse = 0;
            for (Integer w : weights) {
                if (w == null || w < 1) {
                    throw new IllegalArgumentException("every weight must be an integer >= 1, found " + w);
                }
                total += w;
                inverse += 1.0 / w;
            }
            int n = weights.size();
            return new WeightSums(total, (n - 1) * (total * inverse) / ((double) n * n));
        }
    }
}
