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
 * An open-addressing set of those positions ({@code slots}, at most half full, homed by Fibonacci
 * hashing) answers "did a collision happen here?" with one or two reads, which a filtered walk
 * asks at every point it skips. Collisions are rare (about {@code points² / 2³³}: ~1,300 for 3.3 M points), so the table
 * is tiny.
 */
final class CollisionTable {

    static final CollisionTable NONE = new CollisionTable(new int[0], new int[] {0}, new int[0]);

    private final int[] positions;
    private final int[] start;
    private final int[] losers;
    /** Collision index + 1 by hashed position; 0 = empty. */
    private final int[] slots;
    /** {@code 32 − log2(slots.length)}: a position's home slot is the top bits of its Fibonacci hash. */
    private final int shift;

    private CollisionTable(int[] positions, int[] start, int[] losers) {
        this.positions = positions;
        this.start = start;
        this.losers = losers;
        int capacity = 2;
        while (capacity < positions.length * 2) {
            capacity <<= 1;
        }
        this.slots = new int[capacity];
        this.shift = Integer.numberOfLeadingZeros(capacity) + 1;
        for (int i = 0; i < positions.length; i++) {
            int j = slot(positions[i]);
            while (slots[j] != 0) {
                j = (j + 1) & (capacity - 1);
            }
            slots[j] = i + 1;
        }
    }

    /** Home slot of {@code position}: as many top bits of {@code position × 0x9E3779B9} as the table has index bits. */
    int slot(int position) {
        return position * 0x9E3779B9 >>> shift;
    }

    /** Index of the collision at ring position {@code position}, or -1 when none happened there. */
    int at(int position) {
        int mask = slots.length - 1;
        for (int j = slot(position); ; j = (j + 1) & mask) {
            int s = slots[j];
            if (s == 0) {
                return -1;
            }
            if (positions[s - 1] == position) {
                return s - 1;
            }
        }
    }

    /** Number of positions with at least one losing node. */
    int size() {
        return positions.length;
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

    /** Number of losing nodes of collision {@code i}. */
    int loserCount(int i) {
        return start[i + 1] - start[i];
    }

    /** Losing node {@code k} (best first) of collision {@code i}. */
    int loser(int i, int k) {
        return losers[start[i] + k];
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
                + PointTable.arrayBytes(losers.length, 4) + PointTable.arrayBytes(slots.length, 4);
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
