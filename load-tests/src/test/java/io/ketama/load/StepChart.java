package io.ketama.load;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * Draws the migration steps as grouped bars: on the left, per raise, the share of carried keys
 * the shadow counters predicted would move beside the share that did; on the right, the hit
 * ratio just before the raise, in its first seconds, and over the whole step.
 */
final class StepChart {

    private static final int WIDTH = 1400;
    private static final int HEIGHT = 620;
    private static final Color AXIS = new Color(0x606060);
    private static final Color GRID = new Color(0xE0E0E0);
    private static final Color PREDICTED = new Color(0x7B3294);
    private static final Color OBSERVED = new Color(0x1F77B4);
    private static final Color BEFORE = new Color(0xB0B0B0);
    private static final Color FIRST = new Color(0xFF7F0E);
    private static final Color WHOLE = new Color(0x2E8B57);

    private StepChart() {
    }

    static void render(List<StepResult> results, Path png) {
        System.setProperty("java.awt.headless", "true");
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 20));
            g.drawString("Migration steps: predicted vs observed key moves, and hit ratio", 70, 32);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
            g.setColor(AXIS);
            g.drawString("predicted = (share − previous share)/100 × shadow disagreement rate of the previous step; "
                    + "observed = carried keys whose first request in the step missed", 70, 54);

            List<StepResult> raises = results.stream().filter(r -> r.step() > 0).toList();
            String[] labels = raises.stream().map(r -> r.previousSharePercent() + "→" + r.sharePercent() + "%").toArray(String[]::new);
            double[][] moved = new double[raises.size()][];
            double top = 0.05;
            for (int i = 0; i < raises.size(); i++) {
                StepResult r = raises.get(i);
                moved[i] = new double[] {r.predictedMovedFraction(), r.observedMovedFraction()};
                for (double v : moved[i]) {
                    if (!Double.isNaN(v)) {
                        top = Math.max(top, v);
                    }
                }
            }
            top = Math.min(1, TimelineChart.niceCeiling(top * 100) / 100);
            groupedBars(g, 70, 110, 600, 420, "share of carried keys that moved", labels, moved, top,
                    new String[] {"predicted", "observed"}, new Color[] {PREDICTED, OBSERVED});

            String[] allLabels = results.stream().map(r -> r.sharePercent() + "%").toArray(String[]::new);
            double[][] ratios = new double[results.size()][];
            for (int i = 0; i < results.size(); i++) {
                StepResult r = results.get(i);
                ratios[i] = new double[] {r.hitRatioBefore(), r.hitRatioFirstSeconds(), r.window().hitRatio()};
            }
            groupedBars(g, 760, 110, 600, 420, "hit ratio per step (v2 share)", allLabels, ratios, 1.0,
                    new String[] {"before the raise", "first seconds", "whole step"}, new Color[] {BEFORE, FIRST, WHOLE});
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

    private static void groupedBars(Graphics2D g, int x, int y, int w, int h, String caption, String[] groups,
                                    double[][] values, double top, String[] series, Color[] colors) {
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        g.drawString(caption, x, y - 24);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        FontMetrics fm = g.getFontMetrics();
        for (int i = 0; i <= 5; i++) {
            double v = top * i / 5;
            int gy = (int) Math.round(y + h - v / top * h);
            g.setColor(GRID);
            g.drawLine(x + 1, gy, x + w - 1, gy);
            g.setColor(AXIS);
            String label = String.format(Locale.ROOT, "%.0f%%", v * 100);
            if (top < 0.1) {
                label = String.format(Locale.ROOT, "%.1f%%", v * 100);
            }
            g.drawString(label, x - 8 - fm.stringWidth(label), gy + fm.getAscent() / 2 - 1);
        }
        g.setColor(AXIS);
        g.setStroke(new BasicStroke(1));
        g.drawRect(x, y, w, h);
        int lx = x;
        for (int s = 0; s < series.length; s++) {
            g.setColor(colors[s]);
            g.fillRect(lx, y - 16, 14, 10);
            g.setColor(Color.BLACK);
            g.drawString(series[s], lx + 18, y - 6);
            lx += fm.stringWidth(series[s]) + 34;
        }
        if (groups.length == 0) {
            return;
        }
        double groupWidth = (double) w / groups.length;
        double barWidth = groupWidth * 0.7 / series.length;
        for (int i = 0; i < groups.length; i++) {
            double gx = x + i * groupWidth + groupWidth * 0.15;
            for (int s = 0; s < series.length; s++) {
                double v = values[i][s];
                double bx = gx + s * barWidth;
                if (Double.isNaN(v)) {
                    g.setColor(AXIS);
                    g.drawString("n/a", (float) (bx + 2), y + h - 4);
                    continue;
                }
                double bh = Math.min(1, v / top) * h;
                g.setColor(colors[s]);
                g.fill(new Rectangle2D.Double(bx, y + h - bh, barWidth - 2, bh));
                g.setColor(Color.BLACK);
                String text = String.format(Locale.ROOT, v < 0.1 ? "%.1f%%" : "%.0f%%", v * 100);
                g.drawString(text, (float) (bx + (barWidth - 2 - fm.stringWidth(text)) / 2), (float) (y + h - bh - 4));
            }
            g.setColor(AXIS);
            String label = groups[i];
            g.drawString(label, (float) (x + i * groupWidth + (groupWidth - fm.stringWidth(label)) / 2), y + h + 18);
        }
    }
}
