package io.ketama.core;

/**
 * The points of several node subsets of one ring, each as the ring built from that subset would
 * hold them, found in passes over the ring's points that hash nothing and sort nothing: what a
 * rebuild pays to materialise feature rings ({@link KetamaRing#filter}).
 *
 * <h2>Rule</h2>
 * A subset's ring holds exactly the full ring's point hashes that one of its nodes made, in this
 * order, each owned by the best of its nodes that made it: the full ring's owner when it is in the
 * subset, else the first of the point's {@link CollisionTable losers} that is, the further ones in
 * the subset becoming the subset ring's losers there (see {@link FilteredWalk} for why that is
 * the ring built from the subset).
 *
 * <h2>Cost</h2>
 * Four subsets per pass. A point is decoded from its field alone: its node, and its bucket from the
 * low bucket bits the field holds plus a carry counted whenever those bits wrap. In a
 * {@link PointTable#modular() modular} table (every ring of more than a few thousand points)
 * consecutive points are fewer than {@code 2^(s−1)} buckets apart, so that is exact; in another
 * the index is read to confirm each bucket (two reads, no dependent chain) and searched where a
 * run of empty buckets hid a wrap. Each of the four subsets then costs a
 * read of its node map and a store that the next point overwrites unless this one is kept: no
 * branch that depends on the data, so nothing mispredicts on the about one point in eight that a
 * subset keeps. Collisions (about {@code points² / 2³³}) take a slow path at their positions,
 * reached by a cursor, not a probe per point.
 */
final class RingFilter {

    /** Subsets filtered per pass over the points. */
    static final int PER_PASS = 4;

    /** One subset's points: {@code hash << 32 | node index in the subset}, {@code count} of them, and its collisions. */
    record Points(long[] points, int count, CollisionTable collisions) {
    }

    private RingFilter() {
    }

    /**
     * The points of each subset of a ring's nodes.
     *
     * @param table      the ring's points
     * @param collisions the ring's collisions
     * @param nodeCount  the ring's node count
     * @param toFull     per subset, the ring's index of each of its nodes, ascending
     * @param bounds     per subset, at least as many points as it will keep (the points its nodes make, at most the ring's)
     */
    static Points[] filter(PointTable table, CollisionTable collisions, int nodeCount, int[][] toFull, int[] bounds) {
        Points[] out = new Points[toFull.length];
        int[] none = new int[nodeCount];
        java.util.Arrays.fill(none, -1);
        for (int from = 0; from < toFull.length; from += PER_PASS) {
            int[][] toSub = new int[PER_PASS][];
            long[][] kept = new long[PER_PASS][];
            CollisionTable.Builder[] lost = new CollisionTable.Builder[PER_PASS];
            for (int s = 0; s < PER_PASS; s++) {
                lost[s] = new CollisionTable.Builder();
                if (from + s < toFull.length) {
                    toSub[s] = new int[nodeCount];
                    java.util.Arrays.fill(toSub[s], -1);
                    int[] members = toFull[from + s];
                    for (int i = 0; i < members.length; i++) {
                        toSub[s][members[i]] = i;
                    }
                    // one slot more: every point is stored before it is known to be kept
                    kept[s] = new long[bounds[from + s] + 1];
                } else {
                    toSub[s] = none; // keeps nothing: one slot, overwritten by every point
                    kept[s] = new long[1];
                }
            }
            int[] size = pass(table, collisions, toSub, kept, lost);
            for (int s = 0; s < PER_PASS && from + s < toFull.length; s++) {
                out[from + s] = new Points(kept[s], size[s], lost[s].build());
            }
        }
        return out;
    }

    /** One pass for four subsets; returns how many points each kept. */
    private static int[] pass(PointTable table, CollisionTable collisions, int[][] toSub, long[][] kept, CollisionTable.Builder[] lost) {
        int[] t0 = toSub[0];
        int[] t1 = toSub[1];
        int[] t2 = toSub[2];
        int[] t3 = toSub[3];
        long[] k0 = kept[0];
        long[] k1 = kept[1];
        long[] k2 = kept[2];
        long[] k3 = kept[3];
        int n0 = 0;
        int n1 = 0;
        int n2 = 0;
        int n3 = 0;
        int lowBits = table.bucketLowBits();
        // a modular table's consecutive points are fewer than 2^(s-1) buckets apart (PointTable),
        // so a wrap of the low bits is never hidden and the carry alone finds every bucket
        boolean confirm = !table.modular();
        int high = table.count() == 0 ? 0 : table.bucketOf(0) & -(1 << lowBits);
        int previousLow = table.count() == 0 ? 0 : table.bucketLowOf(table.fieldAt(0));
        int count = table.count();
        int collision = 0;
        int pos = 0;
        while (true) {
            // the points up to the next collision, in a loop with no call and no data-dependent branch
            int end = collision < collisions.size() ? collisions.position(collision) : count;
            for (; pos < end; pos++) {
                int field = table.fieldAt(pos);
                int low = table.bucketLowOf(field);
                high += ((low - previousLow) >>> 31) << lowBits; // the low bucket bits wrapped: the next block of buckets
                previousLow = low;
                int bucket = high | low;
                if (confirm && !table.inBucket(pos, bucket)) {
                    // empty buckets hid a wrap of the low bits (or more than one): ask the index
                    bucket = table.bucketOf(pos);
                    high = bucket & -(1 << lowBits);
                }
                long hash = (long) table.hashOf(bucket, field) << 32;
                int node = table.nodeOf(field);
                int x0 = t0[node];
                int x1 = t1[node];
                int x2 = t2[node];
                int x3 = t3[node];
                k0[n0] = hash | x0;
                k1[n1] = hash | x1;
                k2[n2] = hash | x2;
                k3[n3] = hash | x3;
                n0 += ~x0 >>> 31; // 1 when the node is in the subset
                n1 += ~x1 >>> 31;
                n2 += ~x2 >>> 31;
                n3 += ~x3 >>> 31;
            }
            if (pos == count) {
                break;
            }
            int field = table.fieldAt(pos);
            previousLow = table.bucketLowOf(field);
            int bucket = table.bucketOf(pos);
            high = bucket & -(1 << lowBits);
            int[] size = {n0, n1, n2, n3};
            collisionPoint(collisions, collision, table.nodeOf(field), (long) table.hashOf(bucket, field) << 32, toSub, kept, lost, size);
            n0 = size[0];
            n1 = size[1];
            n2 = size[2];
            n3 = size[3];
            collision++;
            pos++;
        }
        return new int[] {n0, n1, n2, n3};
    }

    /** A point several nodes made: in each subset, owned by the best of them there, the further ones its losers. */
    private static void collisionPoint(CollisionTable collisions, int c, int owner, long hash, int[][] toSub, long[][] kept,
                                       CollisionTable.Builder[] lost, int[] size) {
        int losers = collisions.loserCount(c);
        for (int s = 0; s < toSub.length; s++) {
            int[] sub = toSub[s];
            int winner = sub[owner];
            int next = 0;
            for (; next < losers && winner < 0; next++) {
                winner = sub[collisions.loser(c, next)];
            }
            if (winner < 0) {
                continue;
            }
            for (; next < losers; next++) {
                int loser = sub[collisions.loser(c, next)];
                if (loser >= 0) {
                    lost[s].add(size[s], winner, loser);
                }
            }
            kept[s][size[s]++] = hash | winner;
        }
    }
}
