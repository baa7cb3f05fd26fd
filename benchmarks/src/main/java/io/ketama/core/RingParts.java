package io.ketama.core;

/**
 * Lets the memory report (in this benchmarks module, same package name) reach the objects that
 * hold a ring's points, which the core keeps package-private: JOL then measures exactly them.
 */
public final class RingParts {

    private RingParts() {
    }

    /** The objects holding a ring's points: its point table and its collision side table (with their arrays). */
    public static Object[] pointStorage(KetamaRing<?> ring) {
        return new Object[] {ring.points(), ring.collisions()};
    }

    /** Index bits {@code k} of a ring's point table. */
    public static int indexBits(KetamaRing<?> ring) {
        return ring.points().indexBits();
    }

    /** Whether a ring's lookups compare windows without masks. */
    public static boolean modular(KetamaRing<?> ring) {
        return ring.points().modular();
    }
}
