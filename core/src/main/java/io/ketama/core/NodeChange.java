package io.ketama.core;

/**
 * What one owner gains and loses between two rings, in key hashes out of 2^32.
 *
 * @param gained hashes it owns in the second ring but not in the first
 * @param lost   hashes it owned in the first ring but not in the second
 */
public record NodeChange(long gained, long lost) {

    public NodeChange {
        if (gained < 0 || lost < 0 || gained > HashSpace.SIZE || lost > HashSpace.SIZE) {
            throw new IllegalArgumentException("gained and lost must lie in [0, 2^32], were " + gained + " and " + lost);
        }
    }

    /** {@link #gained()} as a fraction of the hash space. */
    public double gainedFraction() {
        return gained / (double) HashSpace.SIZE;
    }

    /** {@link #lost()} as a fraction of the hash space. */
    public double lostFraction() {
        return lost / (double) HashSpace.SIZE;
    }
}
