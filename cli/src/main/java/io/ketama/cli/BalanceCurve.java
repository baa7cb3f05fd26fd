package io.ketama.cli;

import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.RingAnalysis;
import io.ketama.core.RingVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Balance against points per weight for one server list: for each {@code k} of
 * {@link #POINTS_PER_WEIGHT}, the ring of that many points per weight unit is built and measured
 * exactly ({@link RingAnalysis}: coefficient of variation, max/mean, bytes), beside the CoV the
 * theory expects, {@code √((N−1)·A/(kW+1))}. The chart an operator chooses points per weight from:
 * at 10 equal servers, CoV ≈ 0.23 at 16 points and 0.075 at 160, for 10 times the bytes.
 *
 * @param rows one row per points per weight, in increasing order
 */
record BalanceCurve(String servers, RingVersion version, List<Row> rows) {

    /** The points per weight measured: powers of two from 1 to 1,024, and nginx's 160. */
    static final int[] POINTS_PER_WEIGHT = {1, 2, 4, 8, 16, 32, 64, 128, 160, 256, 512, 1024};

    /** One ring measured. */
    record Row(int pointsPerWeight, int points, double cov, double expectedCov, double maxOverMean, long bytes) {
    }

    /** Measures the rings of {@code nodes} at every {@link #POINTS_PER_WEIGHT} with {@code version}'s hashing. */
    static BalanceCurve measure(String servers, RingVersion version, List<Node<String>> nodes) {
        List<Integer> weights = new ArrayList<>();
        long totalWeight = 0;
        for (Node<String> n : nodes) {
            weights.add(n.weight());
            totalWeight += n.weight();
        }
        List<Row> rows = new ArrayList<>();
        for (int k : POINTS_PER_WEIGHT) {
            if (totalWeight * k > 50_000_000L) {
                break; // past 50 M points a ring takes hundreds of MB: the curve is flat long before
            }
            RingAnalysis<String> a = RingAnalysis.of(KetamaRing.build(version, k, nodes));
            rows.add(new Row(k, a.points(), a.coefficientOfVariation(), RingAnalysis.expectedCov(weights, k), a.maxOverMean(), a.bytes()));
        }
        return new BalanceCurve(servers, version, List.copyOf(rows));
    }

    /** The curve as an SVG chart: CoV (measured and expected) and max/mean − 1 above, ring bytes below, k on a log axis. */
    String svg() {
        double width = 760;
        double left = 70;
        double right = width - 30;
        double topY0 = 50;
        double topY1 = 330;
        double botY0 = 380;
        double botY1 = 540;
        double maxK = rows.get(rows.size() - 1).pointsPerWeight();
        double maxBalance = 0;
        long maxBytes = 1;
        for (Row r : rows) {
            maxBalance = Math.max(maxBalance, Math.max(r.cov(), Math.max(r.expectedCov(), r.maxOverMean() - 1)));
            maxBytes = Math.max(maxBytes, r.bytes());
        }
        double balanceTop = niceCeiling(maxBalance);
        double bytesTop = niceCeiling(maxBytes);
        StringBuilder out = new StringBuilder(8192);
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(f(width)).append("\" height=\"640\" viewBox=\"0 0 ")
                .append(f(width)).append(" 640\" font-family=\"sans-serif\" font-size=\"12\">\n");
        out.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
        out.append("<text x=\"").append(f(left)).append("\" y=\"24\" font-size=\"15\" font-weight=\"bold\">Balance against points per weight: ")
                .append(escape(java.nio.file.Path.of(servers).getFileName().toString())).append(", ring ").append(version.label()).append("</text>\n");
        // axes and grid
        for (int i = 0; i <= 4; i++) {
            double v = balanceTop * i / 4;
            double y = topY1 - (topY1 - topY0) * i / 4;
            out.append(line(left, y, right, y, "#e4e4e4")).append(text(left - 6, y + 4, String.format(Locale.ROOT, "%.3f", v), "end"));
            double b = bytesTop * i / 4;
            double yb = botY1 - (botY1 - botY0) * i / 4;
            out.append(line(left, yb, right, yb, "#e4e4e4")).append(text(left - 6, yb + 4, bytes(b), "end"));
        }
        for (Row r : rows) {
            double x = x(r.pointsPerWeight(), maxK, left, right);
            out.append(line(x, topY0, x, topY1, "#f0f0f0")).append(line(x, botY0, x, botY1, "#f0f0f0"))
                    // nginx's 160 sits next to 128 on the log axis: its label goes a line lower
                    .append(text(x, botY1 + (r.pointsPerWeight() == 160 ? 30 : 16), Integer.toString(r.pointsPerWeight()), "middle"));
        }
        out.append(text((left + right) / 2, botY1 + 50, "points per weight unit (log scale)", "middle"));
        out.append(text(left, topY0 - 8, "coefficient of variation of share / weight share, and max/mean \u2212 1", "start"));
        out.append(text(left, botY0 - 8, "bytes of the ring's points", "start"));
        out.append(series(r -> r.expectedCov() / balanceTop, topY0, topY1, maxK, left, right, "#999999", "6,4", "expected CoV"));
        out.append(series(r -> r.cov() / balanceTop, topY0, topY1, maxK, left, right, "#4e79a7", null, "measured CoV"));
        out.append(series(r -> (r.maxOverMean() - 1) / balanceTop, topY0, topY1, maxK, left, right, "#e15759", null, "max/mean \u2212 1"));
        out.append(series(r -> r.bytes() / bytesTop, botY0, botY1, maxK, left, right, "#59a14f", null, "bytes"));
        // legend
        double lx = right - 190;
        String[][] legend = {{"#4e79a7", "measured CoV", ""}, {"#999999", "expected CoV", "6,4"}, {"#e15759", "max/mean \u2212 1", ""}};
        for (int i = 0; i < legend.length; i++) {
            double ly = topY0 + 14 + i * 18;
            out.append("<line x1=\"").append(f(lx)).append("\" y1=\"").append(f(ly - 4)).append("\" x2=\"").append(f(lx + 24))
                    .append("\" y2=\"").append(f(ly - 4)).append("\" stroke=\"").append(legend[i][0]).append("\" stroke-width=\"2\"")
                    .append(legend[i][2].isEmpty() ? "" : " stroke-dasharray=\"" + legend[i][2] + "\"").append("/>")
                    .append(text(lx + 30, ly, legend[i][1], "start"));
        }
        // the measured values, readable without the chart
        double ty = 620;
        StringBuilder values = new StringBuilder();
        for (Row r : rows) {
            if (r.pointsPerWeight() == 16 || r.pointsPerWeight() == 160) {
                values.append(String.format(Locale.ROOT, "k=%d: CoV %.4f, max/mean %.3f, %s   ", r.pointsPerWeight(), r.cov(),
                        r.maxOverMean(), bytes(r.bytes())));
            }
        }
        out.append(text(left, ty, values.toString().strip(), "start"));
        return out.append("</svg>\n").toString();
    }

    private interface Value {
        double of(Row r);
    }

    private String series(Value value, double y0, double y1, double maxK, double left, double right, String colour, String dash,
                          String name) {
        StringBuilder points = new StringBuilder();
        StringBuilder dots = new StringBuilder();
        for (Row r : rows) {
            double x = x(r.pointsPerWeight(), maxK, left, right);
            double y = y1 - (y1 - y0) * Math.max(0, Math.min(1, value.of(r)));
            points.append(f(x)).append(',').append(f(y)).append(' ');
            dots.append("<circle cx=\"").append(f(x)).append("\" cy=\"").append(f(y)).append("\" r=\"2.5\" fill=\"").append(colour)
                    .append("\"/>");
        }
        return "<polyline class=\"" + escape(name) + "\" fill=\"none\" stroke=\"" + colour + "\" stroke-width=\"2\""
                + (dash == null ? "" : " stroke-dasharray=\"" + dash + "\"") + " points=\"" + points.toString().strip() + "\"/>"
                + dots + "\n";
    }

    private static double x(int k, double maxK, double left, double right) {
        return left + (right - left) * (Math.log(k) / Math.log(maxK));
    }

    private static double niceCeiling(double v) {
        if (v <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= v) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String bytes(double b) {
        if (b >= 1 << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", b / (1 << 20));
        }
        if (b >= 1 << 10) {
            return String.format(Locale.ROOT, "%.1f KiB", b / (1 << 10));
        }
        return String.format(Locale.ROOT, "%.0f B", b);
    }

    private static String line(double x1, double y1, double x2, double y2, String colour) {
        return "<line x1=\"" + f(x1) + "\" y1=\"" + f(y1) + "\" x2=\"" + f(x2) + "\" y2=\"" + f(y2) + "\" stroke=\"" + colour + "\"/>";
    }

    private static String text(double x, double y, String text, String anchor) {
        return "<text x=\"" + f(x) + "\" y=\"" + f(y) + "\" text-anchor=\"" + anchor + "\">" + escape(text) + "</text>\n";
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
