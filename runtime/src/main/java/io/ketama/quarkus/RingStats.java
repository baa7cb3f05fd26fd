package io.ketama.quarkus;

/**
 * Size and balance of one ring.
 *
 * @param points                 points on the ring after collisions
 * @param bytes                  bytes the point storage retains
 * @param pointsPerWeight        points per unit of weight the ring was built with
 * @param coefficientOfVariation standard deviation over mean of each member's share of the circle
 *                               divided by its share of the total weight (0 = perfect balance, and
 *                               for an empty ring); see {@code io.ketama.core.RingAnalysis}
 */
public record RingStats(int points, long bytes, int pointsPerWeight, double coefficientOfVariation) {
}
