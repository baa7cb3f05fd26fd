package io.ketama.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * An immutable ketama consistent-hash ring.
 *
 * <h2>Contract</h2>
 * Each node gets {@code weight × pointsPerWeight} points; point {@code j} of a node hashes
 * {@code crc32(host ‖ 0x00 ‖ port ‖ le32(hash of point j−1))}, with 0 before the first point.
 * Points are ordered by hash as unsigned 32-bit numbers; of several points with one hash only one
 * survives ({@link RingVersion} says which). A key goes to the node of the first point whose hash
 * is {@code >=} crc32(key), wrapping to the first point past the last. With the defaults, v1 is
 * exactly nginx's {@code hash $request_uri consistent} and pingora-ketama's default ring.
 *
 * <h2>Cost</h2>
 * Storage is {@link PointTable}: 4.3–4.8 bytes per point instead of pingora's 6 or 8. Lookups
 * ({@link #locate(byte[])}, {@link #nodeIndexForHash(int)}) allocate nothing, take no lock, and
 * are safe from any thread. A build sorts the points with a linear-time radix sort.
 *
 * <p>An empty ring answers "no node" ({@code null} or -1) and never throws.
 *
 * @param <T> the payload type of the nodes
 */
public final class KetamaRing<T> {

    /** Rings above this many points would not fit a Java array (and would need > 16 GiB to build). */
    public static final long MAX_POINTS = Integer.MAX_VALUE - 64;

    private final RingVersion version;
    private final int pointsPerWeight;
    private final List<Node<T>> nodes;
    private final Object[] nodeArray;
    private final PointTable points;
    private final CollisionTable collisions;
    private final long generatedPoints;

    private KetamaRing(RingVersion version, int pointsPerWeight, List<Node<T>> nodes, PointTable points,
                       CollisionTable collisions, long generatedPoints) {
        this.version = version;
        this.pointsPerWeight = pointsPerWeight;
        this.nodes = nodes;
        this.nodeArray = nodes.toArray();
        this.points = points;
        this.collisions = collisions;
        this.generatedPoints = generatedPoints;
    }

    /** A ring of {@code version} with its default points per weight (160 for v1, 16 for v2). */
    public static <T> KetamaRing<T> build(RingVersion version, List<Node<T>> nodes) {
        return build(version, version.defaultPointsPerWeight(), nodes);
    }

    /**
     * Builds a ring. Node order matters for v1 (the earlier node wins a collision) and not for v2.
     *
     * @throws IllegalArgumentException when {@code pointsPerWeight < 1} or the ring would exceed {@link #MAX_POINTS}
     */
    public static <T> KetamaRing<T> build(RingVersion version, int pointsPerWeight, List<Node<T>> nodes) {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(nodes, "nodes");
        if (pointsPerWeight < 1) {
            throw new IllegalArgumentException("points per weight must be an integer >= 1, was " + pointsPerWeight);
        }
        List<Node<T>> copy = Collections.unmodifiableList(new ArrayList<>(nodes));
        int n = copy.size();
        long total = 0;
        for (Node<T> node : copy) {
            Objects.requireNonNull(node, "node");
            total += (long) node.weight() * pointsPerWeight;
        }
        if (total > MAX_POINTS) {
            throw new IllegalArgumentException("a ring of " + total + " points is too large; at most " + MAX_POINTS
                    + " (sum of weights x points per weight)");
        }
        int[] order = tieBreakOrder(version, copy);
        long[] raw = new long[(int) total];
        int p = 0;
        for (int rank = 0; rank < n; rank++) {
            Node<T> node = copy.get(order[rank]);
            int prefix = node.identity().prefixRegister();
            int perNode = node.weight() * pointsPerWeight;
            int prev = 0;
            for (int j = 0; j < perNode; j++) {
                int h = Crc32.finish(Crc32.extendLittleEndian(prefix, prev));
                raw[p++] = ((long) h << 32) | rank;
                prev = h;
            }
        }
        long[] sorted = PointSorter.sortByHighWord(raw, p);
        int[] hashes = new int[p];
        int[] owners = new int[p];
        CollisionTable.Builder collisions = new CollisionTable.Builder();
        int kept = 0;
        for (int i = 0; i < p; i++) {
            int h = (int) (sorted[i] >>> 32);
            int owner = order[(int) sorted[i]];
            if (kept > 0 && hashes[kept - 1] == h) {
                // the earlier point in tie-break order survives; feature rings need the losers
                collisions.add(kept - 1, owners[kept - 1], owner);
                continue;
            }
            hashes[kept] = h;
            owners[kept] = owner;
            kept++;
        }
        return new KetamaRing<>(version, pointsPerWeight, copy, new PointTable(hashes, owners, kept, n),
                collisions.build(), total);
    }

    /** Ranks nodes for collisions: input order for v1, identity order for v2 (input order among equal identities). */
    private static <T> int[] tieBreakOrder(RingVersion version, List<Node<T>> nodes) {
        Integer[] idx = new Integer[nodes.size()];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = i;
        }
        if (version == RingVersion.V2) {
            Arrays.sort(idx, Comparator.comparing(i -> nodes.get(i).identity())); // stable
        }
        int[] out = new int[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = idx[i];
        }
        return out;
    }

    public RingVersion version() {
        return version;
    }

    public int pointsPerWeight() {
        return pointsPerWeight;
    }

    /** The nodes, in the order given to {@link #build}. */
    public List<Node<T>> nodes() {
        return nodes;
    }

    public int nodeCount() {
        return nodeArray.length;
    }

    public boolean isEmpty() {
        return points.count() == 0;
    }

    /** Points on the ring after collisions were resolved. */
    public int pointCount() {
        return points.count();
    }

    /** Points generated before collisions were resolved: sum of weight × points per weight. */
    public long generatedPointCount() {
        return generatedPoints;
    }

    /** Points lost to hash collisions. */
    public long collidingPointCount() {
        return generatedPoints - points.count();
    }

    /** The node that owns {@code key}, or null when the ring is empty. Allocates nothing. */
    public Node<T> locate(byte[] key) {
        return nodeOrNull(nodeIndexForHash(Crc32.hash(key)));
    }

    /** The node that owns the UTF-8 bytes of {@code key}, or null when the ring is empty. */
    public Node<T> locate(CharSequence key) {
        return nodeOrNull(nodeIndexForHash(Crc32.hashUtf8(key)));
    }

    /** The node that owns a key whose CRC-32 is {@code hash}, or null when the ring is empty. */
    public Node<T> locateHash(int hash) {
        return nodeOrNull(nodeIndexForHash(hash));
    }

    /** Index into {@link #nodes()} of the owner of {@code hash}, or -1 when the ring is empty. */
    public int nodeIndexForHash(int hash) {
        int pos = points.position(hash);
        return pos < 0 ? -1 : points.nodeAt(pos);
    }

    /**
     * Position (0-based, in ring order) of the first point at or after {@code hash}, wrapping;
     * -1 when empty. With {@link #nodeIndexAt(int)} this walks the ring point by point, as
     * pingora's {@code node_iter} does.
     */
    public int position(int hash) {
        return points.position(hash);
    }

    /** Index into {@link #nodes()} of the node of the point at {@code position}. */
    public int nodeIndexAt(int position) {
        Objects.checkIndex(position, points.count());
        return points.nodeAt(position);
    }

    /** Hash of the point at {@code position}. */
    public int hashAt(int position) {
        Objects.checkIndex(position, points.count());
        return points.hashAt(position);
    }

    /** Every point hash in ring order (a copy, for analysis). */
    public int[] pointHashes() {
        return points.hashes();
    }

    @SuppressWarnings("unchecked")
    public Node<T> node(int index) {
        return (Node<T>) nodeArray[index];
    }

    @SuppressWarnings("unchecked")
    private Node<T> nodeOrNull(int index) {
        return index < 0 ? null : (Node<T>) nodeArray[index];
    }

    /**
     * Failover order for {@code key}: its owner, then each further distinct node in ring order,
     * each once, then the end (after one full turn of the ring). Nodes whose every point lost a
     * collision never appear.
     */
    public Iterator<Node<T>> failover(byte[] key) {
        return failoverForHash(Crc32.hash(key));
    }

    /** {@link #failover(byte[])} for the UTF-8 bytes of {@code key}. */
    public Iterator<Node<T>> failover(CharSequence key) {
        return failoverForHash(Crc32.hashUtf8(key));
    }

    /** {@link #failover(byte[])} for a key whose CRC-32 is {@code hash}. */
    public Iterator<Node<T>> failoverForHash(int hash) {
        return new DistinctNodeIterator<>(this, PointWalk.full(points, points.position(hash)), nodeArray.length);
    }

    /** The first {@code max} nodes of {@link #failover(byte[])}. */
    public List<Node<T>> candidates(byte[] key, int max) {
        return candidatesForHash(Crc32.hash(key), max);
    }

    /** The first {@code max} nodes of {@link #failoverForHash(int)}. */
    public List<Node<T>> candidatesForHash(int hash, int max) {
        int[] idx = new int[Math.max(0, Math.min(max, nodeArray.length))];
        int n = candidateIndices(hash, idx);
        List<Node<T>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(node(idx[i]));
        }
        return out;
    }

    /**
     * Allocation-free failover: fills {@code out} with the indices of the first distinct nodes in
     * ring order from {@code hash}'s position and returns how many it wrote (fewer than
     * {@code out.length} when the ring has fewer nodes with points). Duplicate checks are linear
     * in {@code out.length}, meant for a handful of candidates.
     */
    public int candidateIndices(int hash, int[] out) {
        int start = points.position(hash);
        if (start < 0 || out.length == 0) {
            return 0;
        }
        int count = points.count();
        int found = 0;
        int pos = start;
        for (int step = 0; step < count && found < out.length; step++) {
            int node = points.nodeAt(pos);
            boolean seen = false;
            for (int i = 0; i < found; i++) {
                if (out[i] == node) {
                    seen = true;
                    break;
                }
            }
            if (!seen) {
                out[found++] = node;
            }
            if (++pos == count) {
                pos = 0;
            }
        }
        return found;
    }

    /**
     * Bytes the point storage retains, array headers included: the index, the packed points and
     * the small table of points that lost a collision (kept for {@link FeatureRings}). The node
     * table (the {@link Node} objects and the list holding them) is not included.
     */
    public long retainedBytes() {
        return points.retainedBytes() + collisions.retainedBytes();
    }

    PointTable points() {
        return points;
    }

    CollisionTable collisions() {
        return collisions;
    }

    /** Significant bits of each stored point (hash remainder + node number), held in one int; the index comes on top. */
    public int bitsPerPoint() {
        return points.bitsPerPoint();
    }

    @Override
    public String toString() {
        return "KetamaRing[" + version.label() + ", " + pointsPerWeight + " points/weight, " + nodeArray.length
                + " nodes, " + points.count() + " points, " + retainedBytes() + " bytes]";
    }
}
