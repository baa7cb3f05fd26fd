package io.ketama.core;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Failover order: the distinct nodes of a {@link PointWalk}, each the first time the walk meets
 * it, ending when the walk ends or every node that can appear has appeared (so a full turn is not
 * walked once the last candidate was found).
 */
final class DistinctNodeIterator<T> implements Iterator<Node<T>> {

    private final KetamaRing<T> ring;
    private final PointWalk walk;
    private final long[] seen;
    private int remaining;
    private int next = -1;

    /** @param possibleNodes how many distinct nodes the walk can yield at most */
    DistinctNodeIterator(KetamaRing<T> ring, PointWalk walk, int possibleNodes) {
        this.ring = ring;
        this.walk = walk;
        this.seen = new long[(ring.nodeCount() + 63) >>> 6];
        this.remaining = possibleNodes;
        advance();
    }

    private void advance() {
        next = -1;
        while (remaining > 0) {
            int node = walk.next();
            if (node < 0) {
                return;
            }
            if ((seen[node >>> 6] & (1L << node)) == 0) {
                seen[node >>> 6] |= 1L << node;
                remaining--;
                next = node;
                return;
            }
        }
    }

    @Override
    public boolean hasNext() {
        return next >= 0;
    }

    @Override
    public Node<T> next() {
        if (next < 0) {
            throw new NoSuchElementException();
        }
        Node<T> n = ring.node(next);
        advance();
        return n;
    }
}
