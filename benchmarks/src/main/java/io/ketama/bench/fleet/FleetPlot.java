package io.ketama.bench.fleet;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * Draws the fleet curves from a run's {@code fleet.csv} and {@code fleet-memory.csv} into one PNG of
 * three log-log panels against the node count: build time, retained bytes, and CPU time per lookup
 * (ours, the floor, the TreeMap peer, jump hash). No plotting library: plain Java 2D, headless.
 *
 * <pre>
 * java -Djava.awt.headless=true -cp benchmarks/target/benchmarks.jar io.ketama.bench.fleet.FleetPlot RUN_DIR OUT.png
 * </pre>
 */
public final class FleetPlot {

    private static final int PANEL_W = 560;
    private static final int PANEL_H = 440;
    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd),
            new Color(0xff7f0e), new Color(0x8c564b), new Color(0x7f7f7f), new Color(0xe377c2), new Color(0x17becf)};

    private FleetPlot() {
    }

    /** One curve: a label and (nodes, value) points. */
    record Series(String label, List<double[]> points, boolean dashed) {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        Path out = Path.of(args.length > 1 ? args[1] : dir.resolve("fleet-curves.png").toString());
        List<String[]> runs = read(dir.resolve("fleet.csv"));
        List<String[]> memory = read(dir.resolve("fleet-memory.csv"));

        Map<String, Series> build = new LinkedHashMap<>();
        Map<String, Series> lookup = new LinkedHashMap<>();
        for (String[] r : runs) {
            String group = r[0];
            String bench = r[1];
            double cpu = Double.parseDouble(r[4]);
            if (group.startsWith("build-spy-")) {
                add(build, "spymemcached (weighted)", Integer.parseInt(group.substring(10)), cpu / 1e6, true);
            } else if (group.startsWith("build-")) {
                String row = group.substring(6);
                add(build, "ours " + layout(row), nodes(row), cpu / 1e6, false);
            } else if (group.startsWith("lookup-") && (bench.equals("ketama") || bench.equals("floor") || bench.equals("treeMap"))) {
                String row = group.substring(7);
                String label = switch (bench) {
                    case "ketama" -> "ours " + layout(row);
                    case "floor" -> "floor " + layout(row);
                    default -> "TreeMap " + layout(row);
                };
                add(lookup, label, nodes(row), cpu, !bench.equals("ketama"));
            } else if (group.startsWith("peers-")) {
                add(lookup, bench.equals("jumpHash") ? "jump hash" : "spymemcached", Integer.parseInt(group.substring(6)), cpu, true);
            }
        }
        Map<String, Series> bytes = new LinkedHashMap<>();
        for (String[] m : memory) {
            if (!m[0].equals("ring")) {
                continue;
            }
            String row = m[1];
            long points = Long.parseLong(m[4]);
            long table = Long.parseLong(m[5]);
            add(bytes, "ours " + layout(row) + " (whole)", nodes(row), points + table, false);
            if (Long.parseLong(m[6]) > 0) {
                add(bytes, "TreeMap " + layout(row), nodes(row), Long.parseLong(m[6]), true);
            }
            if (layout(row).equals("v1")) {
                add(bytes, "node table", nodes(row), table, false);
            }
        }
        BufferedImage img = new BufferedImage(PANEL_W * 3, PANEL_H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, img.getWidth(), img.getHeight());
        panel(g, 0, "build time (ms, CPU)", new ArrayList<>(build.values()));
        panel(g, PANEL_W, "retained bytes (JOL)", new ArrayList<>(bytes.values()));
        panel(g, 2 * PANEL_W, "lookup (ns, CPU)", new ArrayList<>(lookup.values()));
        g.dispose();
        ImageIO.write(img, "png", out.toFile());
        System.out.println("wrote " + out);
    }

    private static void add(Map<String, Series> map, String label, double x, double y, boolean dashed) {
        if (Double.isNaN(y) || y <= 0) {
            return;
        }
        map.computeIfAbsent(label, l -> new Series(l, new ArrayList<>(), dashed)).points().add(new double[] {x, y});
    }

    private static int nodes(String row) {
        return Integer.parseInt(row.substring(0, row.indexOf('-')));
    }

    private static String layout(String row) {
        return row.substring(row.indexOf('-') + 1);
    }

    private static List<String[]> read(Path csv) throws IOException {
        List<String[]> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(csv);
        for (String line : lines.subList(1, lines.size())) {
            if (!line.isBlank()) {
                out.add(line.split(",", -1));
            }
        }
        return out;
    }

    private static void panel(Graphics2D g, int x0, String title, List<Series> series) {
        int left = x0 + 70;
        int right = x0 + PANEL_W - 20;
        int top = 40;
        int bottom = PANEL_H - 150;
        double minY = Double.MAX_VALUE;
        double maxY = 0;
        for (Series s : series) {
            for (double[] p : s.points()) {
                minY = Math.min(minY, p[1]);
                maxY = Math.max(maxY, p[1]);
            }
        }
        double ly0 = Math.floor(Math.log10(minY));
        double ly1 = Math.ceil(Math.log10(maxY));
        double lx0 = 1;
        double lx1 = Math.log10(100_000);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        g.drawString(title, left, top - 15);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        g.drawRect(left, top, right - left, bottom - top);
        for (double d = ly0; d <= ly1; d++) {
            int y = (int) (bottom - (d - ly0) / (ly1 - ly0) * (bottom - top));
            g.setColor(new Color(0xdddddd));
            g.drawLine(left, y, right, y);
            g.setColor(Color.BLACK);
            g.drawString(String.format(Locale.ROOT, "1e%d", (int) d), x0 + 30, y + 4);
        }
        for (int n : FleetRow.SIZES) {
            int x = (int) (left + (Math.log10(n) - lx0) / (lx1 - lx0) * (right - left));
            g.setColor(new Color(0xdddddd));
            g.drawLine(x, top, x, bottom);
            g.setColor(Color.BLACK);
            g.drawString(String.format(Locale.ROOT, "%,d", n), x - 15, bottom + 15);
        }
        g.drawString("nodes (log)", (left + right) / 2 - 25, bottom + 30);
        int legend = bottom + 48;
        for (int i = 0; i < series.size(); i++) {
            Series s = series.get(i);
            g.setColor(COLORS[i % COLORS.length]);
            g.setStroke(s.dashed() ? new BasicStroke(1.6f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1f, new float[] {6f, 4f}, 0f)
                    : new BasicStroke(2.2f));
            int px = -1;
            int py = -1;
            for (double[] p : s.points()) {
                int x = (int) (left + (Math.log10(p[0]) - lx0) / (lx1 - lx0) * (right - left));
                int y = (int) (bottom - (Math.log10(p[1]) - ly0) / (ly1 - ly0) * (bottom - top));
                g.fillOval(x - 3, y - 3, 6, 6);
                if (px >= 0) {
                    g.drawLine(px, py, x, y);
                }
                px = x;
                py = y;
            }
            int lx = left + (i % 2) * 240;
            int ly = legend + (i / 2) * 14;
            g.drawLine(lx, ly - 4, lx + 22, ly - 4);
            g.setStroke(new BasicStroke(1f));
            g.drawString(s.label(), lx + 28, ly);
        }
        g.setStroke(new BasicStroke(1f));
    }
}
