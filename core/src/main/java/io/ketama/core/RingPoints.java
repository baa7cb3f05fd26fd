package io.ketama.core;

import java.util.Objects;

/**
 * Index-level access to one ring's points and nodes: {@link KetamaRing#points()}. A ring's users
 * ask for nodes ({@link KetamaRing#locate}, {@link KetamaRing#failover}); code that keeps its
 * own per-node state in arrays (counters, a metric per member, a route table) or walks the points
 * itself (analysis, benchmarks, an outside oracle) works in indices, through this view.
 *
 * <p>Node indices are indices into {@link KetamaRing#nodes()}; positions are 0-based in ring
 * order, {@code 0 <= position < }{@link #count()}. Every method is as cheap as the ring's own
 * lookup: no allocation (except {@link #hashes()} and {@link #storage()}, which return new
 * arrays), no lock, safe from any thread. The
 * view is created with its ring, so {@code ring.points()} allocates nothing either.
 *
 * @param <T> the payload type of the ring's nodes
 */
public final class RingPoints<T> {

    private final KetamaRing<T> ring;
    private final PointTable table;
    private final CollisionTable collisions;

    RingPoints(KetamaRing<T> ring, PointTable table, CollisionTable collisions) {
        this.ring = ring;
        this.table = table;
        this.collisions = collisions;
    }

    /** Points on the ring after collisions were resolved ({@link KetamaRing#pointCount()}). */
    public int count() {
        return table.count();
    }

    /** The node at {@code index} of {@link KetamaRing#nodes()}. */
    public Node<T> node(int index) {
        return ring.node(index);
    }

    /** Index of the owner of a key whose {@link KetamaRing#hashKey(byte[]) hash} is {@code hash}, or -1 when the ring is empty. */
    public int nodeIndexForHash(int hash) {
        return ring.nodeIndexForHash(hash);
    }

    /**
     * Position of the first point at or after {@code hash}, wrapping; -1 when empty. With
     * {@link #nodeIndexAt(int)} this walks the ring point by point, as pingora's
     * {@code node_iter} does.
     */
    public int position(int hash) {
        return table.position(hash);
    }

    /** Index of the node of the point at {@code position}. */
    public int nodeIndexAt(int position) {
        Objects.checkIndex(position, table.count());
        return table.nodeAt(position);
    }

    /** Hash of the point at {@code position}. */
    public int hashAt(int position) {
        Objects.checkIndex(position, table.count());
        return table.hashAt(position);
    }

    /** Every point hash in ring order (a copy). */
    public int[] hashes() {
        return table.hashes();
    }

    /** Points node {@code index} generated, before collisions (weight × points per weight for v1 and v2). */
    public long generatedPointsOf(int index) {
        return ring.generatedPointsOf(index);
    }

    /**
     * {@link KetamaRing#failover(byte[])} of {@code key[offset, offset + length)} as indices:
     * fills {@code out} with the first distinct candidates and returns how many it wrote.
     * Duplicate checks are linear in {@code out.length}, meant for a handful of candidates.
     */
    public int candidateIndices(byte[] key, int offset, int length, int[] out) {
        return ring.candidateIndices(key, offset, length, out);
    }

    /**
     * {@link KetamaRing#failoverForHash(int)} as indices: fills {@code out} with the first distinct
     * nodes in ring order from {@code hash}'s position and returns how many it wrote (fewer than
     * {@code out.length} when fewer nodes have points).
     */
    public int candidateIndices(int hash, int[] out) {
        return ring.candidateIndices(hash, out);
    }

    /** Bits of the hash that select an index bucket (the top bits, not stored in the points). */
    public int indexBits() {
        return table.indexBits();
    }

    /** Whether lookups compare a bucket's points without masks (every bucket's window stays near its bucket). */
    public boolean modular() {
        return table.modular();
    }

    /**
     * The objects that hold the points: the point table and the side table of points that lost a
     * collision, with their arrays. For a heap-layout tool (JOL) to measure exactly what
     * {@link KetamaRing#retainedBytes()} counts; their types are not API.
     */
    public Object[] storage() {
        return new Object[] {table, collisions};
    }
}
