package io.ketama.load;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.ToDoubleFunction;
import javax.imageio.ImageIO;

/**
 * Draws a run's per-second timeline as a PNG with three panels sharing the time axis: hit ratio
 * (and the share of answers served by v2), answers per second split into hits, misses and errors,
 * and latency percentiles on a log scale. Markers (migration steps, a member killed) are dashed
 * vertical lines through all three.
 */
final class TimelineChart {

    private static final int WIDTH = 1400;
    private static final int LEFT = 80;
    private static final int RIGHT = 40;
    private static final Color GRID = new Color(0xE0E0E0);
    private static final Color AXIS = new Color(0x606060);
    private static final Color HIT = new Color(0x2E8B57);
    private static final Color MISS = new Color(0xB0B0B0);
    private static final Color ERROR = new Color(0xD62728);
    private static final Color FAILED = new Color(0x8C1C13);
    private static final Color BYPASS = new Color(0xF2C14E);
    private static final Color HIT_RATIO = new Color(0x1F77B4);
    private static final Color V2 = new Color(0xFF7F0E);
    private static final Color P50 = new Color(0x2CA02C);
    private static final Color P95 = new Color(0xFF7F0E);
    private static final Color P99 = new Color(0xD62728);
    private static final Color MARKER = new Color(0x7B3294);
    private static final Color REFERENCE = new Color(0x202020);

    private record Panel(int x, int y, int width, int height) {
    }

    private TimelineChart() {
    }

    /** Renders {@code rows} (one per second) with {@code markers} into {@code png}. */
    static void render(String title, String subtitle, List<TimelineRow> rows, List<Marker> markers, Path png) {
        render(title, subtitle, rows, markers, null, null, png);
    }

    /**
     * As {@link #render(String, String, List, List, Path)}, with a reference hit ratio per second
     * ({@code reference[second]}, NaN where undefined) drawn dashed in the hit ratio panel.
     */
    static void render(String title, String subtitle, List<TimelineRow> rows, List<Marker> markers,
                       double[] reference, String referenceLabel, Path png) {
        System.setProperty("java.awt.headless", "true");
        int height = 980;
        BufferedImage image = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, height);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 20));
            g.drawString(title, LEFT, 30);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
            g.setColor(AXIS);
            g.drawString(subtitle, LEFT, 52);

            int seconds = Math.max(1, rows.size());
            int plotWidth = WIDTH - LEFT - RIGHT;
            Panel ratio = new Panel(LEFT, 90, plotWidth, 280);
            Panel rate = new Panel(LEFT, 420, plotWidth, 220);
            Panel latency = new Panel(LEFT, 690, plotWidth, 220);

            drawRatioPanel(g, ratio, rows, seconds, reference, referenceLabel);
            drawRatePanel(g, rate, rows, seconds);
            drawLatencyPanel(g, latency, rows, seconds);
            drawMarkers(g, List.of(ratio, rate, latency), markers, seconds);
            drawTimeAxis(g, latency, seconds, height);
        } finally {
            g.dispose();
        }
        try {
            Path parent = png.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            ImageIO.write(image, "png", png.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write chart " + png, e);
        }
    }

    private static void drawRatioPanel(Graphics2D g, Panel p, List<TimelineRow> rows, int seconds,
                                       double[] reference, String referenceLabel) {
        boolean anyV2 = rows.stream().anyMatch(r -> r.v2() > 0);
        frame(g, p, anyV2 ? "hit ratio and share of answers served by the v2 ring (%)" : "hit ratio (%)");
        for (int pct = 0; pct <= 100; pct += 20) {
            int y = yLinear(p, pct, 100);
            gridLine(g, p, y, pct + "%");
        }
        polyline(g, p, rows, seconds, r -> 100 * r.hitRatio(), v -> yLinear(p, v, 100), HIT_RATIO, 2.2f);
        if (anyV2) {
            polyline(g, p, rows, seconds, r -> 100 * r.v2Ratio(), v -> yLinear(p, v, 100), V2, 1.6f);
        }
        List<String> labels = new java.util.ArrayList<>(List.of("hit ratio"));
        List<Color> colors = new java.util.ArrayList<>(List.of(HIT_RATIO));
        if (anyV2) {
            labels.add("served by v2");
            colors.add(V2);
        }
        if (reference != null) {
            Path2D.Double path = new Path2D.Double();
            boolean penDown = false;
            for (int s = 0; s < reference.length && s < seconds; s++) {
                if (Double.isNaN(reference[s])) {
                    penDown = false;
                    continue;
                }
                double x = xOf(p, s + 0.5, seconds);
                double y = yLinear(p, 100 * reference[s], 100);
                if (penDown) {
                    path.lineTo(x, y);
                } else {
                    path.moveTo(x, y);
                    penDown = true;
                }
            }
            g.setColor(REFERENCE);
            g.setStroke(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10, new float[] {7, 5}, 0));
            g.draw(path);
            g.setStroke(new BasicStroke(1));
            labels.add(referenceLabel);
            colors.add(REFERENCE);
        }
        legend(g, p, labels.toArray(String[]::new), colors.toArray(Color[]::new));
    }

    private static void drawRatePanel(Graphics2D g, Panel p, List<TimelineRow> rows, int seconds) {
        frame(g, p, "requests finished per second");
        long max = 1;
        for (TimelineRow r : rows) {
            max = Math.max(max, r.requests());
        }
        double top = niceCeiling(max);
        for (int i = 0; i <= 4; i++) {
            double v = top * i / 4;
            gridLine(g, p, yLinear(p, v, top), format(v));
        }
        double barWidth = Math.max(1, (double) p.width() / seconds - 1);
        for (TimelineRow r : rows) {
            double x = xOf(p, r.second(), seconds);
            double base = 0;
            base = bar(g, p, x, barWidth, base, r.hits(), top, HIT);
            base = bar(g, p, x, barWidth, base, r.misses(), top, MISS);
            base = bar(g, p, x, barWidth, base, r.bypasses(), top, BYPASS);
            bar(g, p, x, barWidth, base, r.errors(), top, ERROR);
        }
        if (rows.stream().anyMatch(r -> r.failedAttempts() > 0)) {
            // Attempts that failed and were retried elsewhere: a client behind a retrying balancer never sees them.
            polyline(g, p, rows, seconds, r -> r.failedAttempts(), v -> yLinear(p, v, top), FAILED, 1.4f);
            legend(g, p, new String[] {"hits", "misses", "bypasses", "errors", "failed attempts (retried)"},
                    new Color[] {HIT, MISS, BYPASS, ERROR, FAILED});
        } else {
            legend(g, p, new String[] {"hits", "misses", "bypasses", "errors"}, new Color[] {HIT, MISS, BYPASS, ERROR});
        }
    }

    private static void drawLatencyPanel(Graphics2D g, Panel p, List<TimelineRow> rows, int seconds) {
        frame(g, p, "latency of answered requests (ms, log scale)");
        long max = 10;
        for (TimelineRow r : rows) {
            max = Math.max(max, r.p99());
        }
        double decades = Math.ceil(Math.log10(max + 1));
        for (int d = 0; d <= decades; d++) {
            double v = Math.pow(10, d);
            gridLine(g, p, yLog(p, v, decades), format(v));
        }
        polyline(g, p, rows, seconds, r -> r.p50() < 0 ? Double.NaN : r.p50(), v -> yLog(p, v, decades), P50, 1.6f);
        polyline(g, p, rows, seconds, r -> r.p95() < 0 ? Double.NaN : r.p95(), v -> yLog(p, v, decades), P95, 1.6f);
        polyline(g, p, rows, seconds, r -> r.p99() < 0 ? Double.NaN : r.p99(), v -> yLog(p, v, decades), P99, 1.6f);
        legend(g, p, new String[] {"p50", "p95", "p99"}, new Color[] {P50, P95, P99});
    }

    private static void drawMarkers(Graphics2D g, List<Panel> panels, List<Marker> markers, int seconds) {
        Stroke dashed = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
        FontMetrics fm = g.getFontMetrics();
        Panel top = panels.get(0);
        int row = 0;
        double lastLabelEnd = -1;
        for (Marker m : markers) {
            double x = xOf(top, m.second(), seconds);
            g.setColor(MARKER);
            g.setStroke(dashed);
            for (Panel p : panels) {
                g.draw(new java.awt.geom.Line2D.Double(x, p.y(), x, p.y() + p.height()));
            }
            g.setStroke(new BasicStroke(1));
            // Labels of close markers go on alternating rows so they do not overwrite each other.
            row = x < lastLabelEnd ? (row + 1) % 3 : 0;
            int labelY = top.y() + 16 + row * 15;
            int labelWidth = fm.stringWidth(m.label());
            double labelX = Math.min(x + 4, top.x() + top.width() - labelWidth - 2);
            g.setColor(new Color(255, 255, 255, 210));
            g.fillRect((int) labelX - 1, labelY - fm.getAscent(), labelWidth + 2, fm.getHeight());
            g.setColor(MARKER);
            g.drawString(m.label(), (float) labelX, labelY);
            lastLabelEnd = labelX + labelWidth + 6;
        }
    }

    private static void drawTimeAxis(Graphics2D g, Panel p, int seconds, int height) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setColor(AXIS);
        int step = niceStep(seconds / 12.0);
        FontMetrics fm = g.getFontMetrics();
        for (int s = 0; s <= seconds; s += step) {
            int x = (int) xOf(p, s, seconds);
            g.drawLine(x, p.y() + p.height(), x, p.y() + p.height() + 5);
            String label = Integer.toString(s);
            g.drawString(label, x - fm.stringWidth(label) / 2, p.y() + p.height() + 20);
        }
        String caption = "seconds since the start of the run";
        g.drawString(caption, p.x() + (p.width() - fm.stringWidth(caption)) / 2, height - 22);
    }

    private static void frame(Graphics2D g, Panel p, String caption) {
        g.setColor(AXIS);
        g.setStroke(new BasicStroke(1));
        g.drawRect(p.x(), p.y(), p.width(), p.height());
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        g.setColor(Color.BLACK);
        g.drawString(caption, p.x(), p.y() - 8);
    }

    private static void gridLine(Graphics2D g, Panel p, int y, String label) {
        g.setColor(GRID);
        g.setStroke(new BasicStroke(1));
        g.drawLine(p.x() + 1, y, p.x() + p.width() - 1, y);
        g.setColor(AXIS);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        FontMetrics fm = g.getFontMetrics();
        g.drawString(label, p.x() - 8 - fm.stringWidth(label), y + fm.getAscent() / 2 - 1);
    }

    private static void legend(Graphics2D g, Panel p, String[] labels, Color[] colors) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        FontMetrics fm = g.getFontMetrics();
        int x = p.x() + p.width();
        for (int i = labels.length - 1; i >= 0; i--) {
            x -= fm.stringWidth(labels[i]) + 30;
            g.setColor(colors[i]);
            g.fillRect(x, p.y() - 19, 14, 10);
            g.setColor(Color.BLACK);
            g.drawString(labels[i], x + 18, p.y() - 9);
        }
    }

    private static void polyline(Graphics2D g, Panel p, List<TimelineRow> rows, int seconds,
                                 ToDoubleFunction<TimelineRow> value, java.util.function.DoubleUnaryOperator toY,
                                 Color color, float width) {
        Path2D.Double path = new Path2D.Double();
        boolean penDown = false;
        for (TimelineRow r : rows) {
            double v = value.applyAsDouble(r);
            if (Double.isNaN(v)) {
                penDown = false;   // a second with no answers leaves a gap, not a fake value
                continue;
            }
            double x = xOf(p, r.second() + 0.5, seconds);
            double y = toY.applyAsDouble(v);
            if (penDown) {
                path.lineTo(x, y);
            } else {
                path.moveTo(x, y);
                penDown = true;
            }
        }
        g.setColor(color);
        g.setStroke(new BasicStroke(width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(path);
        g.setStroke(new BasicStroke(1));
    }

    private static double bar(Graphics2D g, Panel p, double x, double width, double base, long value, double top, Color color) {
        if (value <= 0) {
            return base;
        }
        double y0 = yLinear(p, base, top);
        double y1 = yLinear(p, base + value, top);
        g.setColor(color);
        g.fill(new java.awt.geom.Rectangle2D.Double(x, y1, width, Math.max(1, y0 - y1)));
        return base + value;
    }

    private static double xOf(Panel p, double second, int seconds) {
        return p.x() + second * p.width() / seconds;
    }

    private static int yLinear(Panel p, double value, double top) {
        double clamped = Math.max(0, Math.min(top, value));
        return (int) Math.round(p.y() + p.height() - clamped / top * p.height());
    }

    private static int yLog(Panel p, double value, double decades) {
        double v = Math.log10(Math.max(1, value));
        return (int) Math.round(p.y() + p.height() - Math.min(decades, v) / decades * p.height());
    }

    /** The smallest of 1, 2, 5 × 10^k at or above {@code value}. */
    static double niceCeiling(double value) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(Math.max(1, value))));
        for (double f : new double[] {1, 2, 5, 10}) {
            if (f * magnitude >= value) {
                return f * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static int niceStep(double rough) {
        return (int) Math.max(1, niceCeiling(Math.max(1, rough)));
    }

    private static String format(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(java.util.Locale.ROOT, "%.1f", v);
    }
}
