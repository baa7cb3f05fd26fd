package io.ketama.quarkus;

import io.ketama.core.KetamaRing;

/** Balance of a ring: how far each node's share of the circle is from its share of the weight. */
final class Balance {

    private Balance() {
    }

    /** Coefficient of variation of (circle share / weight share) over the nodes; NaN when empty. */
    static double coefficientOfVariation(KetamaRing<?> ring) {
        int n = ring.nodeCount();
        int points = ring.pointCount();
        if (n == 0 || points == 0) {
            return Double.NaN;
        }
        long[] arc = new long[n];
        long previous = Integer.toUnsignedLong(ring.hashAt(points - 1)) - (1L << 32);
        for (int i = 0; i < points; i++) {
            long h = Integer.toUnsignedLong(ring.hashAt(i));
            arc[ring.nodeIndexAt(i)] += h - previous; // point i owns (previous point, h]
            previous = h;
        }
        long totalWeight = 0;
        for (int i = 0; i < n; i++) {
            totalWeight += ring.node(i).weight();
        }
        double sum = 0;
        double sumSq = 0;
        for (int i = 0; i < n; i++) {
            double ratio = (arc[i] / 4294967296.0) / ((double) ring.node(i).weight() / totalWeight);
            sum += ratio;
            sumSq += ratio * ratio;
        }
        double mean = sum / n;
        double variance = Math.max(0, sumSq / n - mean * mean);
        return Math.sqrt(variance) / mean;
    }
}
