package io.ketama.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
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
 * <p>A ring built with a memcached {@link HashStyle} instead makes its points, ranks ties, hashes
 * keys ({@link #hashKey}) and orders failover as spymemcached or hashring do (see the constants);
 * it is stored and searched the same way.
 *
 * <h2>Cost</h2>
 * Storage is {@link PointTable}: 4.3–4.8 bytes per point instead of pingora's 6 or 8. Lookups
 * ({@link #locate(byte[])}, {@link RingPoints#nodeIndexForHash(int)}) allocate nothing, take no lock, and
 * are safe from any thread. A build sorts the points with a linear-time radix sort.
 *
 * <p>An empty ring answers "no node" ({@code null} or -1) and never throws.
 *
 * @param <T> the payload type of the nodes
 */
public final class KetamaRing<T> {

    /** Rings above this many points would not fit a Java array (and would need > 16 GiB to build). */
    public static final long MAX_POINTS = Integer.MAX_VALUE - 64;

    /**
     * The most points per unit of weight a v1 or v2 ring is built with (the least is 1); every
     * place that takes a points-per-weight value (the extension's
     * {@code quarkus.ketama.v2.points-per-weight}, the CLI's {@code --points-per-weight}) holds it
     * to this bound.
     *
     * <p>Why 1,000,000. A node of weight {@code w} makes {@code w × k} points, and a ring holds
     * {@code Σ w × k} of them: with {@code M} members of the maximum weight
     * ({@link Node#MAX_WEIGHT} = 1,000) that is {@code 1,000 × k × M} points, 6 bytes each as a
     * v2 point is counted (pingora's layout; this ring's storage takes 4.3–4.8) and 8 more each while
     * the build sorts them.
     * <ul>
     *   <li>At {@code k = 10^6} the heaviest node alone makes {@code 10^9} points, under
     *       {@link #MAX_POINTS} ({@code ≈ 2.1 × 10^9}): any single node of any allowed weight fits a
     *       ring at any allowed {@code k}. The next power of ten would make it {@code 10^10}, which
     *       no ring can hold, so every rebuild with such a node would fail.</li>
     *   <li>Above this bound nothing is gained: a node's share then deviates from its weight share
     *       by about {@code 1/√(k × w) ≤ 0.1 %} (coefficient of variation, see
     *       {@link RingAnalysis}), below the skew of real key popularity; nginx uses 160, v2's
     *       default is 16.</li>
     *   <li>The bound does not make every cluster fit: at {@code k = 10^6} the weights of all the
     *       nodes may sum to at most {@code MAX_POINTS / 10^6 = 2,147} (about 12.9 GB of v2 points),
     *       and the build reports a larger ring as too large. Choose {@code k} for the cluster's
     *       total weight {@code W}: {@code W × k × 6} bytes per ring.</li>
     * </ul>
     */
    public static final int MAX_POINTS_PER_WEIGHT = 1_000_000;

    /**
     * The most nodes a ring holds: 2^24 = 16,777,216, the widest node number a point stores
     * ({@link PointTable}). Node numbers never wrap (pingora-ketama's 16-bit number gives node
     * 65,536's points to node 0); a build past this throws. A ring that large would hold at least
     * 16.7 M points and its node table about 0.9 GB, so memory ends a fleet before this does.
     */
    public static final int MAX_NODES = 1 << PointTable.MAX_NODE_BITS;

    /** What {@link #MAX_NODES} allows, for messages. */
    public static final String NODES_RULE = "node numbers are " + PointTable.MAX_NODE_BITS + " bits";

    /** What {@link #MAX_POINTS_PER_WEIGHT} allows, for messages: "an integer from 1 to 1000000". */
    public static final String POINTS_PER_WEIGHT_RULE = "an integer from 1 to " + MAX_POINTS_PER_WEIGHT;

    private final Placement placement;
    private final List<Node<T>> nodes;
    /** The ring's nodes, each reading a {@link NodeTable}: no object per node beyond these 16-byte views. */
    private final Node<T>[] nodeArray;
    private final PointTable points;
    private final CollisionTable collisions;
    private final RingPoints<T> view;
    /** Points each node generated, where the placement cannot derive them from the weight (memcached styles); else null. */
    private final int[] nodePoints;
    private final long generatedPoints;

    private KetamaRing(Placement placement, Node<T>[] nodeArray, PointTable points, CollisionTable collisions,
                       int[] nodePoints, long generatedPoints) {
        this.placement = placement;
        this.nodeArray = nodeArray;
        this.nodes = Collections.unmodifiableList(Arrays.asList(nodeArray));
        this.points = points;
        this.collisions = collisions;
        this.nodePoints = nodePoints;
        this.generatedPoints = generatedPoints;
        this.view = new RingPoints<>(this, points, collisions);
    }

    /** Whether {@code pointsPerWeight} is one a ring is built with: from 1 to {@value #MAX_POINTS_PER_WEIGHT}. */
    public static boolean isPointsPerWeight(int pointsPerWeight) {
        return pointsPerWeight >= 1 && pointsPerWeight <= MAX_POINTS_PER_WEIGHT;
    }

    /** A ring of {@code version} with its default points per weight (160 for v1, 16 for v2). */
    public static <T> KetamaRing<T> build(RingVersion version, List<Node<T>> nodes) {
        return build(version, version.defaultPointsPerWeight(), nodes);
    }

    /**
     * Builds a ring. Node order matters for v1 (the earlier node wins a collision) and not for v2.
     *
     * @throws IllegalArgumentException when {@code pointsPerWeight} is not from 1 to {@link #MAX_POINTS_PER_WEIGHT}
     *                                  or the ring would exceed {@link #MAX_POINTS}
     */
    public static <T> KetamaRing<T> build(RingVersion version, int pointsPerWeight, List<Node<T>> nodes) {
        Objects.requireNonNull(version, "version");
        if (!isPointsPerWeight(pointsPerWeight)) {
            throw new IllegalArgumentException("points per weight must be " + POINTS_PER_WEIGHT_RULE + ", was " + pointsPerWeight);
        }
        return build(new VersionPlacement(version, pointsPerWeight), nodes);
    }

    /**
     * Builds the ring a memcached client builds over {@code nodes} ({@link HashStyle#SPYMEMCACHED},
     * {@link HashStyle#SPYMEMCACHED_WEIGHTED}, {@link HashStyle#HASHRING}): same points, same owner
     * for every key, same failover order. Make the identities with {@link HashStyle#identity}; node
     * order matters (it decides ties, and hashring's and spymemcached's point counts are shares of
     * the total weight).
     *
     * @throws IllegalArgumentException for {@link HashStyle#NGINX} and {@link HashStyle#PINGORA},
     *                                  which need a {@link RingVersion}, or when the ring would exceed {@link #MAX_POINTS}
     */
    public static <T> KetamaRing<T> build(HashStyle style, List<Node<T>> nodes) {
        return build(style, HashStyle.Options.DEFAULTS, nodes);
    }

    /**
     * {@link #build(HashStyle, List)} with the style's options: twemproxy's {@code hash_tag},
     * Dubbo's {@code hash.nodes}.
     *
     * @throws IllegalArgumentException when an option does not go with the style, and as {@link #build(HashStyle, List)}
     */
    public static <T> KetamaRing<T> build(HashStyle style, HashStyle.Options options, List<Node<T>> nodes) {
        Objects.requireNonNull(style, "style");
        Objects.requireNonNull(options, "options");
        return build(style.placement(options).forNodes(Objects.requireNonNull(nodes, "nodes")), nodes);
    }

    /**
     * The ring of some of this ring's nodes, each making as many points as it makes here: the
     * subsequence of this ring's points whose node is in {@code subset} (a feature ring). For v1
     * and v2 that is the ring built from {@code subset}; the memcached styles share points out by
     * weight among all servers, so there it keeps the full ring's counts instead.
     *
     * @param pointCounts points of each node of {@code subset}, from {@link RingPoints#generatedPointsOf}
     */
    KetamaRing<T> restrict(List<Node<T>> subset, long[] pointCounts) {
        return build(placement, subset, pointCounts);
    }

    /**
     * {@link #restrict} by filtering this ring's points instead of making and sorting them again:
     * the restricted ring's points are this ring's, in this order, each owned by the best node of
     * the subset that made it (the owner here, else the first qualifying node that lost the point
     * in tie-break order), its colliding points the further qualifying losers. No hashing, no
     * sort, several subsets per pass over the points ({@link RingFilter}): what a rebuild pays to
     * materialise feature rings.
     *
     * @param toFull per subset, the index here of each of its nodes, ascending
     * @return the ring of each subset, in the order given
     */
    @SuppressWarnings("unchecked")
    KetamaRing<T>[] filter(int[][] toFull) {
        long[][] counts = new long[toFull.length][];
        long[] totals = new long[toFull.length];
        int[] bounds = new int[toFull.length];
        for (int s = 0; s < toFull.length; s++) {
            counts[s] = new long[toFull[s].length];
            for (int i = 0; i < counts[s].length; i++) {
                counts[s][i] = generatedPointsOf(toFull[s][i]);
                totals[s] += counts[s][i];
            }
            bounds[s] = (int) Math.min(points.count(), totals[s]);
        }
        RingFilter.Points[] filtered = RingFilter.filter(points, collisions, nodeArray.length, toFull, bounds);
        KetamaRing<T>[] out = new KetamaRing[toFull.length];
        for (int s = 0; s < toFull.length; s++) {
            Node<T>[] array = ownNodes(nodesAt(toFull[s]));
            int[] stored = null;
            if (placement.version() == null) {
                stored = new int[array.length];
                for (int i = 0; i < stored.length; i++) {
                    stored[i] = (int) counts[s][i];
                }
            }
            RingFilter.Points p = filtered[s];
            out[s] = new KetamaRing<>(placement, array, new PointTable(p.points(), p.count(), array.length), p.collisions(), stored, totals[s]);
        }
        return out;
    }

    private List<Node<T>> nodesAt(int[] indices) {
        List<Node<T>> out = new ArrayList<>(indices.length);
        for (int i : indices) {
            out.add(nodeArray[i]);
        }
        return out;
    }

    private static <T> KetamaRing<T> build(Placement placement, List<Node<T>> nodes) {
        return build(placement, nodes, null);
    }

    private static <T> KetamaRing<T> build(Placement placement, List<Node<T>> nodes, long[] fixedCounts) {
        Objects.requireNonNull(nodes, "nodes");
        Node<T>[] array = ownNodes(nodes);
        int n = array.length;
        List<Node<T>> copy = Arrays.asList(array);
        long[] counts = fixedCounts != null ? fixedCounts.clone() : placement.pointCounts(copy);
        long total = 0;
        for (long c : counts) {
            total += c;
        }
        if (total > MAX_POINTS) {
            throw new IllegalArgumentException("a ring of " + total + " points is too large; at most " + MAX_POINTS
                    + " (sum of weights x points per weight)");
        }
        // each identity once: a ring's own nodes make a new one per call
        HashIdentity[] identities = new HashIdentity[n];
        for (int i = 0; i < n; i++) {
            identities[i] = array[i].identity();
        }
        int[] order = placement.rankOrder(identities);
        long[] raw = new long[(int) total];
        int p = 0;
        for (int rank = 0; rank < n; rank++) {
            int node = order[rank];
            p = placement.emit(identities[node], (int) counts[node], rank, raw, p);
        }
        identities = null; // garbage from here on: a large ring's build needs the room
        long[] sorted = PointSorter.sortByHighWord(raw, p);
        raw = null;
        // in place: each kept point becomes hash << 32 | owner, at or before where it was read
        CollisionTable.Builder collisions = new CollisionTable.Builder();
        int kept = placement.picksTieWinner() ? keepPickedWinners(placement, sorted, p, order, collisions) : 0;
        int lastHash = 0;
        int lastOwner = -1;
        for (int i = placement.picksTieWinner() ? p : 0; i < p; i++) {
            long v = sorted[i];
            int h = (int) (v >>> 32);
            int owner = order[(int) v];
            if (kept > 0 && lastHash == h) {
                // the earlier point in tie-break order survives; feature rings need the losers
                collisions.add(kept - 1, lastOwner, owner);
                continue;
            }
            sorted[kept++] = (v & 0xFFFF_FFFF_0000_0000L) | owner;
            lastHash = h;
            lastOwner = owner;
        }
        int[] stored = null;
        if (placement.version() == null) {
            stored = new int[n];
            for (int i = 0; i < n; i++) {
                stored[i] = (int) counts[i];
            }
        }
        return new KetamaRing<>(placement, array, new PointTable(sorted, kept, n), collisions.build(), stored, total);
    }

    /**
     * The build's collision pass for a placement that picks the owner of a shared point by its hash
     * ({@link Placement#tieWinner}): each run of equal hashes, in tie-break order (a node that made
     * the hash twice is in it twice), becomes one point of the picked entry's node, the others its
     * losers. Returns the number of points kept, written over {@code sorted} from 0.
     */
    private static int keepPickedWinners(Placement placement, long[] sorted, int p, int[] order,
                                         CollisionTable.Builder collisions) {
        int[] run = new int[8];
        int kept = 0;
        int i = 0;
        while (i < p) {
            int h = (int) (sorted[i] >>> 32);
            int m = 0;
            int j = i;
            for (; j < p && (int) (sorted[j] >>> 32) == h; j++) {
                if (m == run.length) {
                    run = Arrays.copyOf(run, 2 * m);
                }
                run[m++] = order[(int) sorted[j]];
            }
            // nearly every run is one point: no pick (xmemcached's is a 64-bit division) and no losers
            int winner = m == 1 ? run[0] : run[placement.tieWinner(h, m)];
            for (int k = 0; m > 1 && k < m; k++) {
                collisions.add(kept, winner, run[k]); // the winner itself is ignored
            }
            sorted[kept++] = ((long) h << 32) | winner; // kept <= i: this run was read already
            i = j;
        }
        return kept;
    }

    /**
     * The ring's own nodes for {@code given}: the nodes themselves when all already read one
     * {@link NodeTable} (another ring's nodes: a v2 ring built from a v1 ring's nodes, a feature
     * ring), so rings over the same nodes share one table; else the nodes of a new table.
     */
    @SuppressWarnings("unchecked")
    private static <T> Node<T>[] ownNodes(List<Node<T>> given) {
        int n = given.size();
        if (n > MAX_NODES) {
            throw new IllegalArgumentException("a ring holds at most " + MAX_NODES + " nodes (" + NODES_RULE + "), "
                    + n + " were given");
        }
        NodeTable<T> shared = null;
        boolean allShared = n > 0;
        for (Node<T> node : given) {
            Objects.requireNonNull(node, "node");
            NodeTable<T> t = node.tableOrNull();
            if (t == null || (shared != null && t != shared)) {
                allShared = false;
            } else {
                shared = t;
            }
        }
        if (allShared) {
            Node<T>[] out = new Node[n];
            for (int i = 0; i < n; i++) {
                out[i] = given.get(i);
            }
            if (n == shared.size() && Arrays.equals(out, shared.nodes())) {
                return shared.nodes(); // the whole table in its own order: its array, shared
            }
            return out;
        }
        return NodeTable.of(given).nodes();
    }

    /** The ring version, or null for a ring built with a memcached {@link HashStyle} ({@link #style()}). */
    public RingVersion version() {
        return placement.version();
    }

    /** The memcached style that placed this ring, or null for a v1/v2 ring. */
    public HashStyle style() {
        return placement.style();
    }

    /** {@code v1}, {@code v2}, or the memcached style's label. */
    public String label() {
        return placement.label();
    }

    /** How keys are hashed: {@code crc32} (v1, v2) or {@code md5} (the memcached styles). */
    public String keyHash() {
        return placement.keyHash();
    }

    /** Points per weight unit; for a memcached style the nominal points per server (160), which the weights share out. */
    public int pointsPerWeight() {
        return placement.pointsPerWeight();
    }

    long generatedPointsOf(int index) {
        return nodePoints != null ? nodePoints[index] : (long) nodeArray[index].weight() * placement.pointsPerWeight();
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

    /**
     * The ring's hash of a key: CRC-32 for v1 and v2, the first four MD5 bytes little-endian for
     * the memcached styles. Allocates nothing.
     */
    public int hashKey(byte[] key) {
        return placement.hashKey(key, 0, key.length);
    }

    /** {@link #hashKey(byte[])} of {@code key[offset, offset + length)}. */
    public int hashKey(byte[] key, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, key.length);
        return placement.hashKey(key, offset, length);
    }

    /**
     * {@link #hashKey(byte[])} of the UTF-8 bytes of {@code key} (unpaired surrogates count as
     * {@code '?'}). Allocates nothing for CRC-32, nor for MD5 of an ASCII key.
     */
    public int hashKey(CharSequence key) {
        return placement.hashKey(key);
    }

    /** The node that owns {@code key}, or null when the ring is empty. Allocates nothing. */
    public Node<T> locate(byte[] key) {
        return nodeOrNull(nodeIndexForHash(placement.hashKey(key, 0, key.length)));
    }

    /** The node that owns the UTF-8 bytes of {@code key}, or null when the ring is empty. */
    public Node<T> locate(CharSequence key) {
        return nodeOrNull(nodeIndexForHash(placement.hashKey(key)));
    }

    /** The node that owns a key whose {@link #hashKey(byte[]) hash} is {@code hash}, or null when the ring is empty. */
    public Node<T> locateHash(int hash) {
        return nodeOrNull(nodeIndexForHash(hash));
    }

    int nodeIndexForHash(int hash) {
        int pos = points.position(hash);
        return pos < 0 ? -1 : points.nodeAt(pos);
    }

    /**
     * Index-level access to the points and nodes of this ring (positions, node indices, point
     * hashes, allocation-free candidate indices), for code that keeps per-node state in arrays or
     * walks the points itself. The same object on every call.
     */
    public RingPoints<T> points() {
        return view;
    }

    Node<T> node(int index) {
        return nodeArray[index];
    }

    private Node<T> nodeOrNull(int index) {
        return index < 0 ? null : nodeArray[index];
    }

    /**
     * Failover order for {@code key}: its owner, then further distinct nodes, each once.
     * <ul>
     *   <li>v1, v2: each further distinct node in ring order, ending after one full turn; nodes
     *       whose every point lost a collision never appear.</li>
     *   <li>{@link HashStyle#HASHRING}: the same walk, and where several nodes made one point,
     *       each of them (hashring's {@code range(key)}).</li>
     *   <li>{@link HashStyle#SPYMEMCACHED}: the distinct owners of spymemcached's seven probes, in
     *       probe order (its {@code getSequence(key)}); often fewer than all nodes, after which
     *       spymemcached goes back to the owner.</li>
     *   <li>{@link HashStyle#XMEMCACHED}: the distinct owners of its {@code nextHash} probes (one
     *       plus one per server).</li>
     *   <li>{@link HashStyle#TWEMPROXY_FNV1A_64}, {@link HashStyle#TWEMPROXY_MD5},
     *       {@link HashStyle#LIBMEMCACHED_WEIGHTED} (and the other libmemcached styles over unequal
     *       weights): the owner on the ring built again without the nodes listed before, as an
     *       ejection rebuilds it (each step builds a ring).</li>
     *   <li>{@link HashStyle#DUBBO} and the unweighted libmemcached styles: the ring walk with the
     *       nodes of a shared point in tie order, which is what re-selecting or rebuilding without
     *       the nodes before gives when a server's points do not depend on the others.</li>
     * </ul>
     */
    public Iterator<Node<T>> failover(byte[] key) {
        if (placement.failover() == Placement.Failover.PROBES) {
            int[] out = new int[Math.min(placement.probes(nodeArray.length), nodeArray.length)];
            return indexIterator(Arrays.copyOf(out, candidateIndices(key, 0, key.length, out)));
        }
        return failoverForHash(placement.hashKey(key, 0, key.length));
    }

    /** {@link #failover(byte[])} for the UTF-8 bytes of {@code key}. */
    public Iterator<Node<T>> failover(CharSequence key) {
        if (placement.failover() == Placement.Failover.PROBES) {
            int[] out = new int[Math.min(placement.probes(nodeArray.length), nodeArray.length)];
            return indexIterator(Arrays.copyOf(out, probeCandidates(-1, null, 0, 0, key, out)));
        }
        return failoverForHash(placement.hashKey(key));
    }

    /**
     * {@link #failover(byte[])} for a key whose hash is {@code hash}. spymemcached's probes need
     * the key itself, so a {@link HashStyle#SPYMEMCACHED} ring walks the ring from the hash here
     * instead: use {@link #failover(byte[])} for spymemcached's order.
     */
    public Iterator<Node<T>> failoverForHash(int hash) {
        if (placement.failover() == Placement.Failover.REBUILD) {
            int[] out = new int[nodeArray.length];
            return indexIterator(Arrays.copyOf(out, rebuildCandidates(hash, out)));
        }
        PointWalk walk = placement.failover() == Placement.Failover.RING_WALK_EQUAL_POINTS
                ? PointWalk.fullWithEqualPoints(points, collisions, points.position(hash))
                : PointWalk.full(points, points.position(hash));
        return new DistinctNodeIterator<>(this, walk, nodeArray.length);
    }

    private Iterator<Node<T>> indexIterator(int[] indices) {
        List<Node<T>> out = new ArrayList<>(indices.length);
        for (int i : indices) {
            out.add(node(i));
        }
        return out.iterator();
    }

    /** The first {@code max} nodes of {@link #failover(byte[])}. */
    public List<Node<T>> candidates(byte[] key, int max) {
        int[] idx = new int[Math.max(0, Math.min(max, nodeArray.length))];
        return nodesOf(idx, candidateIndices(key, 0, key.length, idx));
    }

    /** The first {@code max} nodes of {@link #failoverForHash(int)}. */
    public List<Node<T>> candidatesForHash(int hash, int max) {
        int[] idx = new int[Math.max(0, Math.min(max, nodeArray.length))];
        return nodesOf(idx, candidateIndices(hash, idx));
    }

    private List<Node<T>> nodesOf(int[] idx, int n) {
        List<Node<T>> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(node(idx[i]));
        }
        return out;
    }

    /** {@link RingPoints#candidateIndices(byte[], int, int, int[])}. */
    int candidateIndices(byte[] key, int offset, int length, int[] out) {
        Objects.checkFromIndexSize(offset, length, key.length);
        if (placement.failover() == Placement.Failover.PROBES) {
            return probeCandidates(placement.hashKey(key, offset, length), key, offset, length, null, out);
        }
        return candidateIndices(placement.hashKey(key, offset, length), out);
    }

    /** spymemcached's probes of a key given as bytes, or as {@code text} when {@code key} is null; {@code first} = -1 to hash it here. */
    private int probeCandidates(int first, byte[] key, int offset, int length, CharSequence text, int[] out) {
        if (points.count() == 0 || out.length == 0) {
            return 0;
        }
        int probe = text != null ? placement.hashKey(text) : first;
        int found = 0;
        for (int t = 0; ; t++) {
            found = addDistinct(out, found, points.nodeAt(points.position(probe)));
            if (t == placement.probes(nodeArray.length) - 1 || found == out.length) {
                return found;
            }
            probe = text != null ? placement.nextProbe(probe, t, text) : placement.nextProbe(probe, t, key, offset, length);
        }
    }

    /**
     * {@link Placement.Failover#REBUILD}: the owner of {@code hash}, then its owner on the ring
     * built again from the nodes not yet listed (point counts shared out anew), and so on. Each
     * step builds a ring: this allocates and hashes, unlike a walk.
     */
    private int rebuildCandidates(int hash, int[] out) {
        int found = 0;
        KetamaRing<T> r = this;
        List<Node<T>> live = new ArrayList<>(nodes);
        int[] toFull = new int[nodeArray.length];
        for (int i = 0; i < toFull.length; i++) {
            toFull[i] = i;
        }
        while (found < out.length && !r.isEmpty()) {
            int at = r.nodeIndexForHash(hash);
            out[found++] = toFull[at];
            live.remove(at);
            System.arraycopy(toFull, at + 1, toFull, at, live.size() - at);
            if (live.isEmpty() || found == out.length) {
                break;
            }
            r = build(placement, live);
        }
        return found;
    }

    private static int addDistinct(int[] out, int found, int node) {
        for (int i = 0; i < found; i++) {
            if (out[i] == node) {
                return found;
            }
        }
        out[found] = node;
        return found + 1;
    }

    /** {@link RingPoints#candidateIndices(int, int[])}. */
    int candidateIndices(int hash, int[] out) {
        if (placement.failover() == Placement.Failover.REBUILD) {
            return rebuildCandidates(hash, out);
        }
        int start = points.position(hash);
        if (start < 0 || out.length == 0) {
            return 0;
        }
        boolean equalPoints = placement.failover() == Placement.Failover.RING_WALK_EQUAL_POINTS;
        int count = points.count();
        int found = 0;
        int pos = start;
        for (int step = 0; step < count && found < out.length; step++) {
            found = addDistinct(out, found, points.nodeAt(pos));
            if (equalPoints) {
                int c = collisions.at(pos);
                for (int k = 0, n = c < 0 ? 0 : collisions.loserCount(c); k < n && found < out.length; k++) {
                    found = addDistinct(out, found, collisions.loser(c, k));
                }
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

    Placement placement() {
        return placement;
    }

    PointTable table() {
        return points;
    }

    CollisionTable collisions() {
        return collisions;
    }

    @Override
    public String toString() {
        return "KetamaRing[" + placement.label() + ", " + placement.pointsPerWeight() + " points/weight, " + nodeArray.length
                + " nodes, " + points.count() + " points, " + retainedBytes() + " bytes]";
    }
}
