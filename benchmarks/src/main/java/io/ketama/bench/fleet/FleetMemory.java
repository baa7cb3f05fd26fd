package io.ketama.bench.fleet;

import io.ketama.core.FeatureRings;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.spy.memcached.KetamaNodeLocator;
import org.openjdk.jol.info.GraphLayout;
import org.openjdk.jol.vm.VM;

/**
 * Retained bytes of the fleet rings measured with JOL's {@link GraphLayout} (every object as this
 * JVM lays it out), split three ways:
 * <ul>
 *   <li><b>points</b>: the point table with its index and the collision side table
 *       ({@code ring.points().storage()});</li>
 *   <li><b>node table</b>: everything else the ring retains per node (identities, weights,
 *       features, node objects, the arrays holding them) <em>except the payload objects</em>, which
 *       are the caller's (a Hazelcast member, here an address {@code String}): the ring holds a
 *       reference to each, counted in the node table;</li>
 *   <li><b>whole</b>: points + node table.</li>
 * </ul>
 * Peers on the rows where their graphs fit a measurement: the {@code TreeMap<Long, payload>} of
 * the same points and spymemcached's weighted locator over the same nodes (its {@code MemcachedNode}
 * proxies, which are the caller's, subtracted likewise). Then {@link FeatureRings} with 1, 8 and 64
 * feature sets in use.
 *
 * <pre>
 * java -XX:+UseCompactObjectHeaders -Xmx6g -Djdk.attach.allowAttachSelf=true -cp benchmarks/target/benchmarks.jar \
 *      io.ketama.bench.fleet.FleetMemory /tmp/fleet [rows...]
 * </pre>
 */
public final class FleetMemory {

    /** Peers are measured with JOL up to this many points (a TreeMap entry is 2 objects; JOL keeps a record per object). */
    static final long PEER_POINT_LIMIT = 2_000_000;

    public record Row(String row, int nodes, int points, long pointBytes, long nodeTableBytes, long treeMapBytes,
                      long spyBytes, int spyPoints) {
        public double bytesPerPoint() {
            return (double) pointBytes / points;
        }

        public double nodeTableBytesPerNode() {
            return (double) nodeTableBytes / nodes;
        }

        public long wholeBytes() {
            return pointBytes + nodeTableBytes;
        }
    }

    public record FeatureRow(String row, int sets, int materialised, long ringBytes, long featureRingsBytes,
                             long ownAccounting) {
    }

    private FleetMemory() {
    }

    /** JOL bytes of {@code root}'s graph without the objects of {@code callers} (payloads, the caller's). */
    static long without(Object root, Object[] callers) {
        return GraphLayout.parseInstance(root).subtract(GraphLayout.parseInstance(callers)).totalSize();
    }

    static Object[] payloads(List<? extends Node<?>> nodes) {
        Object[] out = new Object[nodes.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = nodes.get(i).payload();
        }
        return out;
    }

    public static Row measure(String id) {
        FleetRow row = FleetRow.of(id);
        KetamaRing<String> ring = row.build();
        Object[] payloads = payloads(ring.nodes());
        long points = GraphLayout.parseInstance(ring.points().storage()).totalSize();
        long whole = without(ring, payloads);
        long tree = -1;
        if (ring.pointCount() <= PEER_POINT_LIMIT) {
            tree = without(new FleetTreeMap(ring), payloads);
        }
        long spy = -1;
        int spyPoints = 0;
        if (row.version() == io.ketama.core.RingVersion.V1 && 160L * row.nodes() <= PEER_POINT_LIMIT) {
            FleetSpy.Input in = FleetSpy.input(row.nodes());
            KetamaNodeLocator locator = in.build();
            spy = without(locator, in.nodes().toArray());
            spyPoints = countSpyPoints(locator);
        }
        return new Row(id, ring.nodeCount(), ring.pointCount(), points, whole - points, tree, spy, spyPoints);
    }

    private static int countSpyPoints(KetamaNodeLocator locator) {
        try {
            var m = KetamaNodeLocator.class.getDeclaredMethod("getKetamaNodes");
            m.setAccessible(true);
            return ((java.util.Map<?, ?>) m.invoke(locator)).size();
        } catch (ReflectiveOperationException e) {
            return -1;
        }
    }

    public static FeatureRow features(String id, int sets) {
        FleetRow row = FleetRow.of(id);
        KetamaRing<String> ring = FleetFeatures.ring(row);
        FeatureRings<String> fr = FeatureRings.of(ring);
        List<Set<String>> used = FleetFeatures.sets(sets);
        for (int round = 0; round < 3; round++) { // as a service would: every set used, then used again
            for (Set<String> s : used) {
                fr.locate("k" + round, s);
            }
        }
        Object[] payloads = payloads(ring.nodes());
        return new FeatureRow(id, sets, fr.materialisedCount(), without(ring, payloads), without(fr, payloads), fr.retainedBytes());
    }

    /** What one member of an {@code n}-member cluster holds for one snapshot's rings. */
    public record ClusterRow(int members, long v1Points, long v2Points, long bytes, int materialised) {
    }

    /**
     * The rings one member of the extension holds for a cluster of {@code n} members (weights 1–10,
     * 8 tags): v1 (160 points per weight), v2/16 built from v1's nodes (one node table), and both
     * versions' {@link FeatureRings} with 8 feature sets prepared, as RingBuilder makes them. JOL,
     * payloads (the Hazelcast members) subtracted.
     */
    public static ClusterRow cluster(int n) {
        KetamaRing<String> v1 = KetamaRing.build(io.ketama.core.RingVersion.V1, FleetFeatures.nodes(n));
        KetamaRing<String> v2 = KetamaRing.build(io.ketama.core.RingVersion.V2, 16, v1.nodes());
        FeatureRings<String> f1 = FeatureRings.of(v1);
        FeatureRings<String> f2 = FeatureRings.of(v2);
        List<Set<String>> sets = FleetFeatures.sets(64).subList(28, 36); // 8 sets: 2 pairs and 6 triples
        f1.prepare(sets);
        f2.prepare(sets);
        long bytes = without(new Object[] {v1, v2, f1, f2}, payloads(v1.nodes()));
        return new ClusterRow(n, v1.pointCount(), v2.pointCount(), bytes, f1.materialisedCount() + f2.materialisedCount());
    }

    public static String markdown(List<Row> rows, List<FeatureRow> features) {
        StringBuilder sb = new StringBuilder("# Fleet memory (JOL GraphLayout)\n\n```\n" + VM.current().details() + "```\n\n");
        sb.append("| ring | nodes | points | points bytes | bytes/point | node table bytes | node table bytes/node | whole | TreeMap (same points) | × ours | spymemcached (weighted, its points) | × ours |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "| %s | %,d | %,d | %,d | %.2f | %,d | %.1f | %,d | %s | %s | %s | %s |%n", r.row(), r.nodes(),
                    r.points(), r.pointBytes(), r.bytesPerPoint(), r.nodeTableBytes(), r.nodeTableBytesPerNode(), r.wholeBytes(),
                    r.treeMapBytes() < 0 ? "–" : String.format(Locale.ROOT, "%,d", r.treeMapBytes()),
                    r.treeMapBytes() < 0 ? "–" : String.format(Locale.ROOT, "%.1f", (double) r.treeMapBytes() / r.wholeBytes()),
                    r.spyBytes() < 0 ? "–" : String.format(Locale.ROOT, "%,d (%,d points)", r.spyBytes(), r.spyPoints()),
                    r.spyBytes() < 0 ? "–" : String.format(Locale.ROOT, "%.1f", (double) r.spyBytes() / r.wholeBytes())));
        }
        sb.append("\nPayload objects (the caller's: here the address strings; spymemcached's node objects) are subtracted from every graph;\n"
                + "the references to them are counted.\n\n## Feature sets in use\n\n");
        sb.append("| ring | sets used | materialised | one ring (whole) | FeatureRings (whole) | × one ring | own accounting |\n");
        sb.append("|---|---:|---:|---:|---:|---:|---:|\n");
        for (FeatureRow f : features) {
            sb.append(String.format(Locale.ROOT, "| %s | %d | %d | %,d | %,d | %.2f | %,d |%n", f.row(), f.sets(), f.materialised(),
                    f.ringBytes(), f.featureRingsBytes(), (double) f.featureRingsBytes() / f.ringBytes(), f.ownAccounting()));
        }
        return sb.toString();
    }

    public static String csv(List<Row> rows, List<FeatureRow> features) {
        StringBuilder sb = new StringBuilder("kind,ring,nodes,points,point_bytes,node_table_bytes,treemap_bytes,spy_bytes,spy_points,sets,materialised,featurerings_bytes\n");
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "ring,%s,%d,%d,%d,%d,%d,%d,%d,,,%n", r.row(), r.nodes(), r.points(), r.pointBytes(),
                    r.nodeTableBytes(), r.treeMapBytes(), r.spyBytes(), r.spyPoints()));
        }
        for (FeatureRow f : features) {
            sb.append(String.format(Locale.ROOT, "features,%s,,,,,,,,%d,%d,%d%n", f.row(), f.sets(), f.materialised(), f.featureRingsBytes()));
        }
        return sb.toString();
    }

    /** Rows from the arguments after the output directory, or every row. */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : ".");
        Files.createDirectories(dir);
        List<String> ids = args.length > 1 ? List.of(args).subList(1, args.length) : FleetRow.all();
        List<Row> rows = new ArrayList<>();
        for (String id : ids) {
            rows.add(measure(id));
            System.out.println(rows.get(rows.size() - 1));
        }
        List<FeatureRow> features = new ArrayList<>();
        for (int n : FleetRow.SIZES) {
            String id = n + "-v2.16";
            if (!ids.contains(id)) {
                continue;
            }
            for (int s : FleetFeatures.SET_COUNTS) {
                features.add(features(id, s));
                System.out.println(features.get(features.size() - 1));
            }
        }
        StringBuilder clusters = new StringBuilder("\n## One member's rings for a cluster (v1 + v2/16 sharing nodes, both FeatureRings with 8 sets prepared)\n\n"
                + "| members | v1 points | v2 points | dedicated rings | bytes | bytes per member |\n|---:|---:|---:|---:|---:|---:|\n");
        for (int n : FleetRow.SIZES) {
            if (!ids.contains(n + "-v1")) {
                continue;
            }
            ClusterRow c = cluster(n);
            clusters.append(String.format(Locale.ROOT, "| %,d | %,d | %,d | %d | %,d | %,.0f |%n", c.members(), c.v1Points(), c.v2Points(),
                    c.materialised(), c.bytes(), (double) c.bytes() / c.members()));
            System.out.println(c);
        }
        Files.writeString(dir.resolve("fleet-memory.md"), markdown(rows, features) + clusters);
        Files.writeString(dir.resolve("fleet-memory.csv"), csv(rows, features));
        System.out.println(markdown(rows, features));
    }
}
