package io.ketama.core;

/**
 * One node's exact part of the hash circle against the part its weight asks for.
 *
 * @param node         the node
 * @param ownedHashes  how many of the 2^32 key hashes it owns (the sum of its points' arcs)
 * @param share        {@code ownedHashes / 2^32}
 * @param weightShare  its weight divided by the sum of all weights
 * @param <T>          payload type
 */
public record NodeShare<T>(Node<T> node, long ownedHashes, double share, double weightShare) {

    /** {@code share ÷ weightShare}: 1 is a perfect balance, 1.1 means 10 % more keys than its weight asks. */
    public double ratio() {
        return share / weightShare;
    }
}
