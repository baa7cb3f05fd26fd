package io.ketama.cli;

import io.ketama.core.KetamaRing;
import io.ketama.core.NodeShare;
import io.ketama.core.RingAnalysis;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code analyze}: the ring's exact balance as JSON (see {@link RingAnalysis}); with
 * {@code --target-cov X}, the smallest points per weight whose expected CoV is at most X, with the
 * formula used.
 */
final class AnalyzeCommand {

    private AnalyzeCommand() {
    }

    /** @param targetCov the target CoV, or null for none */
    static String json(RingOptions options, KetamaRing<String> ring, Double targetCov) throws CliException {
        RingAnalysis<String> a = RingAnalysis.of(ring);
        // The theory counts points per node: weight x points per weight, or for a memcached style
        // the points its clients give each server (points per weight 1).
        boolean memcached = options.style().placesKeys();
        List<Integer> weights = new ArrayList<>();
        for (int i = 0; i < ring.nodeCount(); i++) {
            weights.add(memcached ? (int) ring.points().generatedPointsOf(i) : ring.points().node(i).weight());
        }
        int pointsPerWeight = memcached ? 1 : options.pointsPerWeight();
        if (targetCov != null && memcached) {
            throw new CliException("--target-cov needs a ring whose points per weight can be chosen (--hash-style nginx or pingora); "
                    + options.style().label() + " clients fix the points");
        }
        JsonWriter json = new JsonWriter().beginObject(false);
        json.field("servers", options.servers().toString());
        json.field("ring", ring.label());
        json.field("pointsPerWeight", options.pointsPerWeight());
        json.field("hashStyle", options.style().label());
        json.field("nodes", a.nodes());
        json.field("points", a.points());
        json.field("collidingPoints", a.collidingPoints());
        json.field("bytes", a.bytes());
        json.field("bytesPerPoint", a.bytes() / (double) a.points());
        json.field("coefficientOfVariation", a.coefficientOfVariation());
        json.field("maxOverMean", a.maxOverMean());
        if (!weights.contains(0)) {
            json.field("expectedCoefficientOfVariation", RingAnalysis.expectedCov(weights, pointsPerWeight));
        }
        if (targetCov != null) {
            int k = targetPointsPerWeight(targetCov, weights);
            json.name("target").beginObject(false);
            json.field("targetCov", targetCov);
            json.field("pointsPerWeight", k);
            json.field("expectedCov", RingAnalysis.expectedCov(weights, k));
            json.field("formula", RingAnalysis.EXPECTED_COV_FORMULA);
            json.endObject();
        }
        json.name("shares").beginArray(false);
        for (NodeShare<String> s : a.shares()) {
            json.beginObject(true);
            json.field("server", s.node().payload());
            json.field("weight", s.node().weight());
            json.field("ownedHashes", s.ownedHashes());
            json.field("share", s.share());
            json.field("weightShare", s.weightShare());
            json.field("ratio", s.ratio());
            json.endObject();
        }
        json.endArray();
        return json.endObject().text();
    }

    /**
     * The smallest points per weight that meets {@code targetCov}, or a clear error when that is
     * more than a ring is built with ({@link KetamaRing#MAX_POINTS_PER_WEIGHT}): a value no ring
     * accepts is no answer.
     */
    private static int targetPointsPerWeight(double targetCov, List<Integer> weights) throws CliException {
        double best = RingAnalysis.expectedCov(weights, KetamaRing.MAX_POINTS_PER_WEIGHT);
        if (targetCov >= best) {
            return RingAnalysis.pointsPerWeightFor(targetCov, weights);
        }
        String needed;
        try {
            needed = Integer.toString(RingAnalysis.pointsPerWeightFor(targetCov, weights));
        } catch (IllegalArgumentException e) {
            needed = "more than " + Integer.MAX_VALUE;
        }
        throw new CliException("--target-cov " + targetCov + " needs " + needed + " points per weight for these servers, but a ring "
                + "allows at most " + KetamaRing.MAX_POINTS_PER_WEIGHT + " (--points-per-weight " + KetamaRing.POINTS_PER_WEIGHT_RULE
                + "), which gives an expected CoV " + best + "; choose a larger target (at least that)");
    }
}
