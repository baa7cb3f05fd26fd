package io.ketama.bench;

import io.ketama.core.FeatureRings;
import io.ketama.core.HashIdentity;
import io.ketama.core.HashStyle;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.RingVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.openjdk.jol.info.GraphLayout;
import org.openjdk.jol.vm.VM;

/**
 * Bytes per point measured with JOL's {@link GraphLayout} (it walks the object graph and sizes
 * every object as this JVM lays it out), in two parts reported separately:
 * <ul>
 *   <li><b>point storage</b>: everything that holds the points, index included: the point table
 *   object and its two arrays, and the collision side table. This is what "bytes per point" and the
 *   Rust "bytes" column compare (pingora-ketama's figure is its points vector).</li>
 *   <li><b>node table</b>: the rest of the ring's graph: the node list, the {@link Node} records,
 *   their identities, strings and feature sets. It grows with nodes, not points.</li>
 * </ul>
 * Then the feature scenario: one ring against {@link FeatureRings} serving 8 feature sets, and
 * against 8 dedicated rings (node objects shared, counted once).
 */
public final class MemoryReport {

    /** One measured ring. */
    public record RingMemory(String ring, int nodes, int points, long pointBytes, long wholeBytes, long ownAccounting,
                             int indexBits, boolean modular) {
        public double bytesPerPoint() {
            return (double) pointBytes / points;
        }

        public long nodeTableBytes() {
            return wholeBytes - pointBytes;
        }
    }

    /** The feature scenario, for one ring layout. */
    public record FeatureMemory(String ring, long oneRing, long oneRingPoints, long featureRings, long featureRingsOwn,
                                int materialised, long materialisedBytes, long dedicatedRings, long dedicatedPoints) {
    }

    private MemoryReport() {
    }

    public static RingMemory measure(String label, KetamaRing<?> ring) {
        long points = GraphLayout.parseInstance(ring.points().storage()).totalSize(); // the parts are roots
        long whole = GraphLayout.parseInstance(ring).totalSize();
        return new RingMemory(label, ring.nodeCount(), ring.pointCount(), points, whole, ring.retainedBytes(),
                ring.points().indexBits(), ring.points().modular());
    }

    public static List<RingMemory> rings() {
        List<RingMemory> out = new ArrayList<>();
        for (RingRow r : RingRow.values()) {
            out.add(measure(r.id, r.build()));
        }
        // the other corners: <= 256 and > 256 nodes, small and large rings
        out.add(measure("256-v2.16 (w1)", KetamaRing.build(RingVersion.V2, 16, loopback(256))));
        out.add(measure("256-v1 (w10)", KetamaRing.build(RingVersion.V1, 160, RingRow.randomNodes(256, 10, 256))));
        out.add(measure("256-v2.16 (w10)", KetamaRing.build(RingVersion.V2, 16, RingRow.randomNodes(256, 10, 256))));
        out.add(measure("1000-v2.16 (w1)", KetamaRing.build(RingVersion.V2, 16, RingRow.randomNodes(1000, 1, 1000))));
        out.add(measure("1000-v1 (w1)", KetamaRing.build(RingVersion.V1, 160, RingRow.randomNodes(1000, 1, 1000))));
        out.add(measure("10000-v2.16 (w4)", KetamaRing.build(RingVersion.V2, 16, RingRow.randomNodes(10_000, 4, 10_000))));
        // the memcached styles: the same table, MD5 points (160 per server, shared out by weight)
        for (HashStyle style : List.of(HashStyle.SPYMEMCACHED, HashStyle.HASHRING)) {
            out.add(measure("100-" + style.label(), KetamaRing.build(style, memcached(style, RingRow.N100_V1.nodes()))));
            out.add(measure("2048-" + style.label() + " (w10)", KetamaRing.build(style, memcached(style, RingRow.N2048_V1.nodes()))));
        }
        return out;
    }

    /** The same servers, named as {@code host:port} the way a memcached client names them. */
    private static List<Node<String>> memcached(HashStyle style, List<Node<String>> nodes) {
        List<Node<String>> out = new ArrayList<>();
        for (Node<String> n : nodes) {
            String text = n.identity().host() + ":" + n.identity().port();
            out.add(Node.of(style.identity(text), n.weight(), text));
        }
        return out;
    }

    private static List<Node<String>> loopback(int n) {
        List<Node<String>> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String a = "127.0." + (i / 250) + "." + (1 + i % 250) + ":6443";
            out.add(Node.of(HashIdentity.pingora(a), 1, a));
        }
        return out;
    }

    public static FeatureMemory features(RingVersion version, int pointsPerWeight) {
        KetamaRing<String> ring = FeatureFixture.ring(version, pointsPerWeight);
        FeatureRings<String> fr = FeatureRings.of(ring);
        List<KetamaRing<String>> dedicated = new ArrayList<>();
        long dedicatedPoints = 0;
        for (Set<String> s : FeatureFixture.SETS) {
            fr.locate("k", s);
            KetamaRing<String> d = FeatureFixture.dedicated(ring, s);
            dedicated.add(d);
            dedicatedPoints += measure("", d).pointBytes();
        }
        String label = "2048 nodes w10 " + version.label() + "/" + pointsPerWeight;
        return new FeatureMemory(label, GraphLayout.parseInstance(ring).totalSize(), measure("", ring).pointBytes(),
                GraphLayout.parseInstance(fr).totalSize(), fr.retainedBytes(), fr.materialisedCount(), fr.materialisedBytes(),
                GraphLayout.parseInstance(dedicated.toArray()).totalSize(), dedicatedPoints);
    }

    public static List<FeatureMemory> features() {
        return List.of(features(RingVersion.V2, 16), features(RingVersion.V1, 160));
    }

    static String ringTable(List<RingMemory> rings) {
        StringBuilder sb = new StringBuilder();
        sb.append("| ring | nodes | points | k | windows | point storage (JOL) | bytes/point | own accounting | node table (JOL) | Rust bytes | Rust bytes/point |\n");
        sb.append("|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|\n");
        for (RingMemory m : rings) {
            RingRow row = null;
            for (RingRow r : RingRow.values()) {
                if (r.id.equals(m.ring())) {
                    row = r;
                }
            }
            sb.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %d | %s | %,d | %.2f | %,d | %,d | %s | %s |%n",
                    m.ring(), m.nodes(), m.points(), m.indexBits(), m.modular() ? "modular" : "masked", m.pointBytes(),
                    m.bytesPerPoint(), m.ownAccounting(), m.nodeTableBytes(),
                    row == null ? "" : String.format(Locale.ROOT, "%,d", row.rustBytes),
                    row == null ? "" : String.format(Locale.ROOT, "%.2f", (double) row.rustBytes / m.points())));
        }
        return sb.toString();
    }

    static String featureTable(List<FeatureMemory> fms) {
        StringBuilder sb = new StringBuilder();
        sb.append("| ring | one ring (JOL, whole) | FeatureRings, 8 sets used (JOL, whole) | ratio | sets materialised | materialised bytes | 8 dedicated rings (JOL, whole) | ratio | one ring points only | 8 dedicated, points only |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (FeatureMemory f : fms) {
            sb.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %.2f× | %d of 8 | %,d | %,d | %.2f× | %,d | %,d |%n",
                    f.ring(), f.oneRing(), f.featureRings(), (double) f.featureRings() / f.oneRing(), f.materialised(),
                    f.materialisedBytes(), f.dedicatedRings(), (double) f.dedicatedRings() / f.oneRing(), f.oneRingPoints(),
                    f.dedicatedPoints()));
        }
        return sb.toString();
    }

    static String csv(List<RingMemory> rings) {
        StringBuilder sb = new StringBuilder("ring,nodes,points,index_bits,windows,point_storage_bytes,bytes_per_point,own_accounting_bytes,node_table_bytes\n");
        for (RingMemory m : rings) {
            sb.append(String.format(Locale.ROOT, "%s,%d,%d,%d,%s,%d,%.4f,%d,%d%n", m.ring(), m.nodes(), m.points(), m.indexBits(),
                    m.modular() ? "modular" : "masked", m.pointBytes(), m.bytesPerPoint(), m.ownAccounting(), m.nodeTableBytes()));
        }
        return sb.toString();
    }

    /** Writes memory.md and memory.csv into the directory given (default: the working directory) and prints the tables. */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : ".");
        Files.createDirectories(dir);
        String md = report();
        Files.writeString(dir.resolve("memory.md"), md);
        Files.writeString(dir.resolve("memory.csv"), csv(lastRings));
        System.out.println(md);
    }

    private static List<RingMemory> lastRings = List.of();

    /** The rings measured by the last {@link #report()}. */
    static List<RingMemory> lastRings() {
        return lastRings;
    }

    static String report() {
        lastRings = rings();
        List<FeatureMemory> fms = features();
        return "# Memory (JOL GraphLayout)\n\n```\n" + VM.current().details() + "```\n\n## Rings\n\n" + ringTable(lastRings)
                + "\nPoint storage = the point table and its arrays (index + fields) and the collision side table: what holds the points.\n"
                + "Node table = the rest of the ring's object graph (node list, Node records, identities, strings, feature sets).\n"
                + "Own accounting = KetamaRing.retainedBytes(), which assumes 16-byte array headers.\n\n## Feature sets\n\n"
                + featureTable(fms)
                + "\nEach node has some of 4 tags; the 8 sets are " + FeatureFixture.SETS + ".\n"
                + "FeatureRings keeps the full ring, per-node feature masks and per-set node bitsets, and materialises dedicated rings for sets\n"
                + "holding < 1/4 of the points within its default budget (0.5 × the ring's point storage, less masks and plans).\n";
    }
}
