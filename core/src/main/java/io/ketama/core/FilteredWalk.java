package io.ketama.core;

/**
 * Walks the full ring as if it held only the points of qualifying nodes: the ring a dedicated
 * build from those nodes would give (same version, same points per weight).
 *
 * <p>Why this is exact: a dedicated ring generates the same points for each of its nodes, orders
 * them the same way and resolves a collision by the same rule, which ranks any subset of nodes in
 * the order it ranks them in the full ring. So its points are the full ring's point hashes that at
 * least one qualifying node generated, each owned by the best qualifying node that generated it.
 * At a position where the full ring's owner qualifies, that owner is the answer; where it does
 * not, the answer is the best qualifying node in the {@link CollisionTable} for that position,
 * and with none the position does not exist in the dedicated ring and the walk moves on.
 *
 * <p>Each skipped point costs a bit test and a probe of the collision table's position set (one
 * read, usually of an empty slot). A cursor walks at most one turn of the ring.
 */
final class FilteredWalk implements PointWalk {

    private final PointTable points;
    private final CollisionTable collisions;
    private final long[] qualifying;
    private final boolean equalPoints;
    private int pos;
    private int stepsLeft;
    /** With equal points: the collision whose further qualifying losers are still to come, or -1. */
    private int collision = -1;
    private int nextLoser;
    private int yieldedHere;

    /**
     * A cursor at the first point at or after {@code hash}; exhausted at once on an empty ring.
     *
     * @param equalPoints whether a point several qualifying nodes made yields each of them (in
     *                    tie-break order), as a ring that keeps equal points side by side walks
     */
    FilteredWalk(PointTable points, CollisionTable collisions, long[] qualifying, int hash, boolean equalPoints) {
        this.points = points;
        this.collisions = collisions;
        this.qualifying = qualifying;
        this.equalPoints = equalPoints;
        int start = points.position(hash);
        this.pos = Math.max(start, 0);
        this.stepsLeft = start < 0 ? 0 : points.count();
    }

    /**
     * The node index of the first qualifying point at or after {@code hash}, wrapping; -1 when no
     * point qualifies. Allocates nothing.
     */
    static int owner(PointTable points, CollisionTable collisions, long[] qualifying, int hash) {
        int pos = points.position(hash);
        if (pos < 0) {
            return -1;
        }
        int count = points.count();
        for (int step = 0; step < count; step++) {
            int node = ownerAt(points, collisions, qualifying, pos);
            if (node >= 0) {
                return node;
            }
            if (++pos == count) {
                pos = 0;
            }
        }
        return -1;
    }

    /** The qualifying owner of the point at {@code pos} in the dedicated ring, or -1 when it has none. */
    private static int ownerAt(PointTable points, CollisionTable collisions, long[] qualifying, int pos) {
        int node = points.nodeAt(pos);
        if ((qualifying[node >>> 6] & (1L << node)) != 0) {
            return node;
        }
        int collision = collisions.at(pos);
        return collision < 0 ? -1 : collisions.firstQualifyingLoser(collision, qualifying);
    }

    /** The node of the next point of the dedicated ring (repeats included), or -1 after one full turn. */
    @Override
    public int next() {
        while (collision >= 0) {
            int node = collisions.loser(collision, nextLoser++);
            if (nextLoser == collisions.loserCount(collision)) {
                collision = -1;
            }
            if (node != yieldedHere && (qualifying[node >>> 6] & (1L << node)) != 0) {
                return node;
            }
        }
        while (stepsLeft > 0) {
            int node = ownerAt(points, collisions, qualifying, pos);
            if (equalPoints && node >= 0) {
                collision = collisions.at(pos);
                nextLoser = 0;
                yieldedHere = node;
            }
            stepsLeft--;
            if (++pos == points.count()) {
                pos = 0;
            }
            if (node >= 0) {
                return node;
            }
        }
        return -1;
    }
}
