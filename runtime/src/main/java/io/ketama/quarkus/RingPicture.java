package io.ketama.quarkus;

import com.hazelcast.cluster.Member;
import io.ketama.core.KetamaRing;
import io.ketama.core.NodeShare;
import io.ketama.core.RingAnalysis;
import io.ketama.core.RingDiff;
import io.ketama.core.RingPoints;
import io.ketama.core.RingVersion;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rings as an SVG picture: the hash circle with each member's arcs (outer band the v1 ring,
 * inner band v2; 0 at the top, hashes growing clockwise), a legend of each member's share of each
 * circle against its weight share, the members left off the rings and why, the v1/v2 split, and
 * what the next step of the split moves. Served by the app's {@code GET /ring} as
 * {@code image/svg+xml} and drawn by the Dev UI card.
 *
 * <p>What a step moves: raising the v2 share from {@code p} to {@code q} sends the keys whose split
 * position falls in {@code [p, q)} through v2 instead of v1 (the split is sticky per key and
 * independent of the ring hash), and of those only the ones whose v2 owner differs from their v1
 * owner change member: {@code (q − p) × D} of all keys, {@code D} the exact share of the hash
 * space on which the two rings disagree ({@link RingDiff}). Three equal members at 160 and 16
 * points per weight disagree on about 60 % of the circle, so a step of 10 points moves about 6 %.
 *
 * <p>Arcs of one member that follow each other are drawn as one path, so a picture of {@code N}
 * members has at most one path per point and usually far fewer.
 */
public final class RingPicture {

    /** Colours of members 1, 2, ...; the 11th member takes the first again. */
    private static final String[] COLOURS = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
        "#ff9da7", "#9c755f", "#bab0ac"};
    private static final long CIRCLE = 1L << 32;
    private static final double CX = 230;
    private static final double CY = 230;

    private RingPicture() {
    }

    /**
     * The picture of {@code snapshot} under {@code migration}.
     *
     * @param nextSharePercent the v2 share the next step goes to (a ramp's next step), or NaN for
     *                         the next multiple of 10 above the current share
     * @param hotKeys          keys to mark on the circle (at their hash on the ring they are served by), may be empty
     */
    public static String svg(RingSnapshot snapshot, MigrationSettings migration, double nextSharePercent, List<String> hotKeys) {
        List<MemberInfo> members = snapshot.members();
        Map<Member, Integer> index = new HashMap<>();
        for (int i = 0; i < members.size(); i++) {
            index.put(members.get(i).member(), i);
        }
        KetamaRing<Member> v1 = snapshot.ring(RingVersion.V1);
        KetamaRing<Member> v2 = snapshot.ring(RingVersion.V2);
        int legendRows = members.size() + snapshot.excluded().size() + 6;
        double height = Math.max(480, 40 + legendRows * 20);
        StringBuilder out = new StringBuilder(8192);
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1200\" height=\"").append(fmt(height))
                .append("\" viewBox=\"0 0 1200 ").append(fmt(height)).append("\" font-family=\"sans-serif\" font-size=\"13\">\n");
        out.append("<title>ketama rings, generation ").append(snapshot.generation()).append("</title>\n");
        out.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
        band(out, v1, index, 170, 210, "v1");
        band(out, v2, index, 115, 155, "v2");
        out.append("<text x=\"").append(fmt(CX)).append("\" y=\"14\" text-anchor=\"middle\" fill=\"#555\">0</text>\n");
        label(out, CX, CY - 190, "v1 " + v1.pointCount() + " points");
        label(out, CX, CY - 135, "v2 " + v2.pointCount() + " points");
        double share = effectiveShare(migration);
        label(out, CX, CY - 8, "generation " + snapshot.generation());
        label(out, CX, CY + 12, members.size() + " member" + (members.size() == 1 ? "" : "s") + " on the rings");
        for (String key : hotKeys) {
            hotKey(out, key, v1, v2, share);
        }

        double x = 470;
        double y = 30;
        double[] columns = {x + 18, x + 185, x + 245, x + 430, x + 615};
        String[] heads = {"member", "weight", "v1: share / weight share", "v2: share / weight share", ""};
        for (int c = 0; c < columns.length; c++) {
            out.append("<text x=\"").append(fmt(columns[c])).append("\" y=\"").append(fmt(y)).append("\" font-weight=\"bold\">")
                    .append(heads[c]).append("</text>");
        }
        out.append('\n');
        Map<Member, NodeShare<Member>> s1 = shares(v1);
        Map<Member, NodeShare<Member>> s2 = shares(v2);
        for (int i = 0; i < members.size(); i++) {
            y += 20;
            MemberInfo m = members.get(i);
            out.append("<rect x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y - 11)).append("\" width=\"12\" height=\"12\" fill=\"")
                    .append(colour(i)).append("\"/>");
            String[] cells = {m.address(), Integer.toString(m.weight()), shareText(s1.get(m.member())), shareText(s2.get(m.member())),
                isLocal(snapshot, m) ? "this member" : ""};
            for (int c = 0; c < columns.length; c++) {
                out.append("<text x=\"").append(fmt(columns[c])).append("\" y=\"").append(fmt(y)).append("\">").append(escape(cells[c]))
                        .append("</text>");
            }
            out.append('\n');
        }
        for (ExcludedMember e : snapshot.excluded()) {
            y += 20;
            out.append("<text x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y)).append("\" fill=\"#b00020\">off the rings: ")
                    .append(escape(MemberAddress.of(e.member()))).append(": ").append(escape(e.reason())).append("</text>\n");
        }
        y += 34;
        double next = Double.isNaN(nextSharePercent) ? Math.min(100, Math.floor(share / 10 + 1e-9) * 10 + 10) : nextSharePercent;
        double disagree = v1.isEmpty() || v2.isEmpty() ? 0 : RingDiff.compare(v1, v2).movedFraction();
        out.append("<text x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y)).append("\" font-weight=\"bold\">migration: ")
                .append(migration.mode().label()).append(", keys through v2: ").append(pct(share / 100)).append("</text>\n");
        y += 12;
        double barWidth = 460;
        out.append("<rect x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y)).append("\" width=\"").append(fmt(barWidth))
                .append("\" height=\"18\" fill=\"#d0d7e2\"><title>v1</title></rect>");
        out.append("<rect x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y)).append("\" width=\"").append(fmt(barWidth * share / 100))
                .append("\" height=\"18\" fill=\"#5b8c5a\"><title>v2</title></rect>");
        if (next > share) {
            out.append("<rect x=\"").append(fmt(x + barWidth * share / 100)).append("\" y=\"").append(fmt(y)).append("\" width=\"")
                    .append(fmt(barWidth * (next - share) / 100)).append("\" height=\"18\" fill=\"#f2b134\">")
                    .append("<title>next step</title></rect>");
        }
        out.append('\n');
        y += 34;
        out.append("<text x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y)).append("\">v1 and v2 disagree on ")
                .append(pct(disagree)).append(" of the circle</text>\n");
        y += 20;
        if (next > share) {
            out.append("<text x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y)).append("\">next step ").append(pct(share / 100))
                    .append(" \u2192 ").append(pct(next / 100)).append(" moves ").append(pct((next - share) / 100 * disagree))
                    .append(" of the keys to another member</text>\n");
        } else {
            out.append("<text x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y)).append("\">every key goes through v2: no step left</text>\n");
        }
        if (!hotKeys.isEmpty()) {
            y += 20;
            out.append("<text x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y)).append("\">\u25B2 hot keys: ")
                    .append(escape(String.join(", ", hotKeys.subList(0, Math.min(8, hotKeys.size()))))).append("</text>\n");
        }
        return out.append("</svg>\n").toString();
    }

    /** The share of keys that go through v2 under {@code m}, in percent. */
    static double effectiveShare(MigrationSettings m) {
        return switch (m.mode()) {
            case V1 -> 0;
            case V2 -> 100;
            case SPLIT -> m.v2SharePercent();
        };
    }

    private static void band(StringBuilder out, KetamaRing<Member> ring, Map<Member, Integer> index, double inner, double outer,
                             String version) {
        if (ring.isEmpty()) {
            out.append("<circle cx=\"").append(fmt(CX)).append("\" cy=\"").append(fmt(CY)).append("\" r=\"").append(fmt((inner + outer) / 2))
                    .append("\" fill=\"none\" stroke=\"#ddd\" stroke-width=\"").append(fmt(outer - inner)).append("\"/>\n");
            return;
        }
        RingPoints<Member> points = ring.points();
        int n = points.count();
        // the point at position i owns (hash[i-1], hash[i]]; position 0 also owns the wrap (hash[n-1], 2^32)
        int i = 0;
        while (i < n) {
            int owner = points.nodeIndexAt(i);
            int j = i;
            while (j + 1 < n && points.nodeIndexAt(j + 1) == owner) {
                j++;
            }
            long from = i == 0 ? 0 : Integer.toUnsignedLong(points.hashAt(i - 1)) + 1;
            arc(out, from, Integer.toUnsignedLong(points.hashAt(j)) + 1, inner, outer, colourOf(points, owner, index), version);
            i = j + 1;
        }
        arc(out, Integer.toUnsignedLong(points.hashAt(n - 1)) + 1, CIRCLE, inner, outer, colourOf(points, points.nodeIndexAt(0), index),
                version);
    }

    private static String colourOf(RingPoints<Member> points, int node, Map<Member, Integer> index) {
        Integer member = index.get(points.node(node).payload());
        return member == null ? "#999" : colour(member);
    }

    private static void arc(StringBuilder out, long from, long to, double inner, double outer, String colour, String version) {
        if (to <= from) {
            return;
        }
        double a0 = 2 * Math.PI * from / CIRCLE;
        double a1 = 2 * Math.PI * to / CIRCLE;
        if (a1 - a0 >= 2 * Math.PI - 1e-9) {
            out.append("<circle cx=\"").append(fmt(CX)).append("\" cy=\"").append(fmt(CY)).append("\" r=\"").append(fmt((inner + outer) / 2))
                    .append("\" fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"").append(fmt(outer - inner))
                    .append("\" class=\"").append(version).append("\"/>\n");
            return;
        }
        int large = a1 - a0 > Math.PI ? 1 : 0;
        out.append("<path class=\"").append(version).append("\" fill=\"").append(colour).append("\" d=\"M").append(xy(outer, a0))
                .append(" A").append(fmt(outer)).append(',').append(fmt(outer)).append(" 0 ").append(large).append(" 1 ").append(xy(outer, a1))
                .append(" L").append(xy(inner, a1)).append(" A").append(fmt(inner)).append(',').append(fmt(inner)).append(" 0 ")
                .append(large).append(" 0 ").append(xy(inner, a0)).append(" Z\"/>\n");
    }

    private static void hotKey(StringBuilder out, String key, KetamaRing<Member> v1, KetamaRing<Member> v2, double share) {
        KetamaRing<Member> ring = share >= 100 ? v2 : v1;
        if (ring.isEmpty()) {
            return;
        }
        double a = 2 * Math.PI * Integer.toUnsignedLong(ring.hashKey(key)) / CIRCLE;
        out.append("<path fill=\"#d62728\" d=\"M").append(xy(222, a)).append(" L").append(xy(236, a - 0.03)).append(" L")
                .append(xy(236, a + 0.03)).append(" Z\"><title>hot key ").append(escape(key)).append("</title></path>\n");
    }

    private static Map<Member, NodeShare<Member>> shares(KetamaRing<Member> ring) {
        Map<Member, NodeShare<Member>> out = new HashMap<>();
        if (!ring.isEmpty()) {
            for (NodeShare<Member> s : RingAnalysis.of(ring).shares()) {
                out.put(s.node().payload(), s);
            }
        }
        return out;
    }

    private static boolean isLocal(RingSnapshot s, MemberInfo m) {
        return s.localMember() != null && s.localMember().getUuid().equals(m.member().getUuid());
    }

    private static String shareText(NodeShare<Member> s) {
        return s == null ? "-" : pct(s.share()) + " / " + pct(s.weightShare()) + " (" + String.format(Locale.ROOT, "%.2f", s.ratio()) + "\u00D7)";
    }

    private static void label(StringBuilder out, double x, double y, String text) {
        out.append("<text x=\"").append(fmt(x)).append("\" y=\"").append(fmt(y)).append("\" text-anchor=\"middle\">")
                .append(escape(text)).append("</text>\n");
    }

    private static String xy(double r, double angle) {
        return fmt(CX + r * Math.sin(angle)) + "," + fmt(CY - r * Math.cos(angle));
    }

    static String colour(int member) {
        return COLOURS[member % COLOURS.length];
    }

    private static String pct(double fraction) {
        return String.format(Locale.ROOT, "%.1f %%", fraction * 100);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
