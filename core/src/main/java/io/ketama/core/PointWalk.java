package io.ketama.core;

/** A cursor over ring points that yields each point's node number, repeats included. */
interface PointWalk {

    /** The node of the next point, or -1 once the walk is over (after at most one turn of the ring). */
    int next();

    /** Every point of {@code points} from {@code start} (a position, or -1 for an empty ring), one turn. */
    static PointWalk full(PointTable points, int start) {
        return new PointWalk() {
            private int pos = Math.max(start, 0);
            private int stepsLeft = start < 0 ? 0 : points.count();

            @Override
            public int next() {
                if (stepsLeft == 0) {
                    return -1;
                }
                stepsLeft--;
                int node = points.nodeAt(pos);
                if (++pos == points.count()) {
                    pos = 0;
                }
                return node;
            }
        };
    }

    /**
     * {@link #full} that also yields, after the node of a point several nodes made, each node that
     * lost it, in tie-break order: the entries of a ring that keeps equal points side by side.
     */
    static PointWalk fullWithEqualPoints(PointTable points, CollisionTable collisions, int start) {
        return new PointWalk() {
            private int pos = Math.max(start, 0);
            private int stepsLeft = start < 0 ? 0 : points.count();
            private int collision = -1;
            private int nextLoser;

            @Override
            public int next() {
                if (collision >= 0) {
                    int node = collisions.loser(collision, nextLoser++);
                    if (nextLoser == collisions.loserCount(collision)) {
                        collision = -1;
                    }
                    return node;
                }
                if (stepsLeft == 0) {
                    return -1;
                }
                stepsLeft--;
                int node = points.nodeAt(pos);
                collision = collisions.at(pos);
                nextLoser = 0;
                if (++pos == points.count()) {
                    pos = 0;
                }
                return node;
            }
        };
    }
}
