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
 * <p>A cursor walks at most one turn of the ring. The collision table is searched only once the
 * walk first skips a point (most walks stop at their first point), then followed in step.
 */
final class FilteredWalk {

    private final PointTable points;
    private final CollisionTable collisions;
    private final long[] qualifying;
    private int pos;
    private int stepsLeft;
    private int collision = -1;

    /** A cursor at the first point at or after {@code hash}; exhausted at once on an empty ring. */
    FilteredWalk(PointTable points, CollisionTable collisions, long[] qualifying, int hash) {
        this.points = points;
        this.collisions = collisions;
        this.qualifying = qualifying;
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
        int collision = -1;
        boolean noCollisions = collisions.size() == 0;
        for (int step = 0; step < count; step++) {
            int node = points.nodeAt(pos);
            if ((qualifying[node >>> 6] & (1L << node)) != 0) {
                return node;
            }
            if (!noCollisions) {
                if (collision < 0) {
                    collision = collisions.firstAtOrAfter(pos);
                }
                if (collision < collisions.size() && collisions.position(collision) == pos) {
                    int loser = collisions.firstQualifyingLoser(collision, qualifying);
                    if (loser >= 0) {
                        return loser;
                    }
                    collision++;
                }
            }
            if (++pos == count) {
                pos = 0;
                collision = 0;
            }
        }
        return -1;
    }

    /** The node of the next point of the dedicated ring (repeats included), or -1 after one full turn. */
    int next() {
        while (stepsLeft > 0) {
            int here = pos;
            if (here == 0 && collision > 0) {
                collision = 0; // wrapped: collisions start over
            }
            int node = points.nodeAt(here);
            stepsLeft--;
            if (++pos == points.count()) {
                pos = 0;
            }
            if ((qualifying[node >>> 6] & (1L << node)) != 0) {
                return node;
            }
            if (collisions.size() > 0) {
                if (collision < 0) {
                    collision = collisions.firstAtOrAfter(here);
                } else {
                    // the walk may have passed collisions at points whose owner qualified
                    while (collision < collisions.size() && collisions.position(collision) < here) {
                        collision++;
                    }
                }
                if (collision < collisions.size() && collisions.position(collision) == here) {
                    int loser = collisions.firstQualifyingLoser(collision, qualifying);
                    collision++;
                    if (loser >= 0) {
                        return loser;
                    }
                }
            }
        }
        return -1;
    }
}
