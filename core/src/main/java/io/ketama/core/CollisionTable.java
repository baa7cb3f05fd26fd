package io.ketama.core;

import java.util.Arrays;

/**
 * The points that lost a hash collision, kept so that a ring restricted to some of its nodes can
 * be answered from the full ring.
 *
 * <h2>Why it exists</h2>
 * When several nodes generate the same point hash, the full ring keeps only the winner's point
 * ({@link RingVersion} decides who wins). A ring built from a subset of the nodes that excludes the
 * winner keeps the point of the best remaining node instead. So "a feature ring is the subsequence
 * of the full ring's points whose node qualifies" holds only if, at a colliding position, the
 * losers can be asked too. This table lists them.
 *
 * <h2>Layout</h2>
 * For each ring position where a collision happened (ascending), the distinct losing nodes other
 * than the winner, in tie-break order (best first), in CSR form: {@code losers[start[i], start[i+1])}.
 * Collisions are rare (about {@code points² / 2³³}: ~1,300 for 3.3 M points), so the table is
 * tiny and a lookup that never meets one pays nothing.
 */
final class CollisionTable {

    static final CollisionTable NONE = new CollisionTable(new int[0], new int[] {0}, new int[0]);

    private final int[] positions;
    private final int[] start;
    private final int[] losers;

    private CollisionTable(int[] positions, int[] start, int[] losers) {
        this.positions = positions;
        this.start = start;
        this.losers = losers;
    }

    /** Number of positions with at least one losing node. */
    int size() {
        return positions.length;
    }

    /** Index of the first collision at a position {@code >= position}; {@link #size()} when none. */
    int firstAtOrAfter(int position) {
        int i = Arrays.binarySearch(positions, position);
        return i >= 0 ? i : -i - 1;
    }

    /** Ring position of collision {@code i}. */
    int position(int i) {
        return positions[i];
    }

    /** The best losing node of collision {@code i} that is in {@code qualifying} (a bitset over node indices), or -1. */
    int firstQualifyingLoser(int i, long[] qualifying) {
        for (int j = start[i], end = start[i + 1]; j < end; j++) {
            int node = losers[j];
            if ((qualifying[node >>> 6] & (1L << node)) != 0) {
                return node;
            }
        }
        return -1;
    }

    /** Losing nodes of collision {@code i}, best first (a copy, for analysis and tests). */
    int[] losersAt(int i) {
        return Arrays.copyOfRange(losers, start[i], start[i + 1]);
    }

    /** Bytes of the three arrays; the shared empty table counts nothing. */
    long retainedBytes() {
        if (this == NONE) {
            return 0;
        }
        return PointTable.arrayBytes(positions.length, 4) + PointTable.arrayBytes(start.length, 4)
                + PointTable.arrayBytes(losers.length, 4);
    }

    /** Collects collisions in ascending position order while a ring is built. */
    static final class Builder {
        private int[] positions = new int[16];
        private int[] start = new int[17];
        private int[] losers = new int[16];
        private int count;
        private int loserCount;
        private int openPosition = -1;

        /**
         * Records that {@code node} also generated the hash of the point at {@code position}, whose
         * winner is {@code winner}. Calls come in ascending position order and, per position, in
         * tie-break order; repeats of a node already recorded there are ignored.
         */
        void add(int position, int winner, int node) {
            if (node == winner) {
                return;
            }
            if (position != openPosition) {
                if (count == positions.length) {
                    positions = Arrays.copyOf(positions, count * 2);
                    start = Arrays.copyOf(start, count * 2 + 1);
                }
                positions[count] = position;
                start[count] = loserCount;
                count++;
                openPosition = position;
            } else {
                for (int j = start[count - 1]; j < loserCount; j++) {
                    if (losers[j] == node) {
                        return;
                    }
                }
            }
            if (loserCount == losers.length) {
                losers = Arrays.copyOf(losers, loserCount * 2);
            }
            losers[loserCount++] = node;
        }

        CollisionTable build() {
            if (count == 0) {
                return NONE;
            }
            int[] s = Arrays.copyOf(start, count + 1);
            s[count] = loserCount;
            return new CollisionTable(Arrays.copyOf(positions, count), s, Arrays.copyOf(losers, loserCount));
        }
    }
}
