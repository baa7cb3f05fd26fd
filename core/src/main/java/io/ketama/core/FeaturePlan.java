package io.ketama.core;

import java.util.Arrays;

/**
 * How {@link FeatureRings} answers one feature set: through the full ring, not at all, by a
 * filtered walk of the full ring, or from a materialised dedicated ring.
 *
 * <p>Immutable except for two racy hints written by lookups without a lock: {@link #stamp} (when
 * the set was last used, for least-recently-used eviction) and {@link #credit} (walks left before
 * an evicted set may be materialised again). A lost update only makes a hint a little stale.
 */
final class FeaturePlan<T> {

    enum Kind { FULL, NONE, WALK, RING }

    final Kind kind;
    /** The resolved feature mask (words of {@link FeatureIndex}); empty for FULL and NONE. */
    final long[] key;
    /** Bitset over the full ring's node indices: the nodes having every feature; null unless WALK or RING. */
    final long[] qualifying;
    /** Points the qualifying nodes generate (weight × points per weight, summed). */
    final long qualifyingPoints;
    /** Whether a dedicated ring may be built for this set (small share, and it fits the budget). */
    final boolean admissible;
    /** The dedicated ring (RING only). */
    final KetamaRing<T> dedicated;
    /** Dedicated ring node index → full ring node index (RING only). */
    final int[] toFull;

    long stamp;
    int credit;

    private FeaturePlan(Kind kind, long[] key, long[] qualifying, long qualifyingPoints, boolean admissible,
                        KetamaRing<T> dedicated, int[] toFull, int credit) {
        this.kind = kind;
        this.key = key;
        this.qualifying = qualifying;
        this.qualifyingPoints = qualifyingPoints;
        this.admissible = admissible;
        this.dedicated = dedicated;
        this.toFull = toFull;
        this.credit = credit;
    }

    static <T> FeaturePlan<T> full(long[] key) {
        return new FeaturePlan<>(Kind.FULL, key, null, 0, false, null, null, 0);
    }

    static <T> FeaturePlan<T> none(long[] key) {
        return new FeaturePlan<>(Kind.NONE, key, null, 0, false, null, null, 0);
    }

    /** A set answered by walking the full ring; {@code credit} walks before a materialisation is tried. */
    static <T> FeaturePlan<T> walk(long[] key, long[] qualifying, long qualifyingPoints, boolean admissible, int credit) {
        return new FeaturePlan<>(Kind.WALK, key, qualifying, qualifyingPoints, admissible, null, null, credit);
    }

    /** This set, now answered by {@code dedicated}. */
    FeaturePlan<T> materialised(KetamaRing<T> dedicated, int[] toFull) {
        FeaturePlan<T> p = new FeaturePlan<>(Kind.RING, key, qualifying, qualifyingPoints, true, dedicated, toFull, 0);
        p.stamp = stamp;
        return p;
    }

    /** This set back to walking after its ring was evicted; {@code credit} walks before it may return. */
    FeaturePlan<T> evicted(int credit) {
        FeaturePlan<T> p = walk(key, qualifying, qualifyingPoints, true, credit);
        p.stamp = stamp;
        return p;
    }

    /** This set, never to be materialised (its ring alone would exceed the budget). */
    FeaturePlan<T> walkOnly() {
        FeaturePlan<T> p = walk(key, qualifying, qualifyingPoints, false, 0);
        p.stamp = stamp;
        return p;
    }

    boolean qualifies(int node) {
        return (qualifying[node >>> 6] & (1L << node)) != 0;
    }

    /** Bytes the materialised ring and its node map retain (0 unless RING). */
    long materialisedBytes() {
        return kind == Kind.RING ? dedicated.retainedBytes() + PointTable.arrayBytes(toFull.length, 4) : 0;
    }

    /** Bytes of this plan's own arrays (key and qualifying bitset), excluding any materialised ring. */
    long planBytes() {
        return PointTable.arrayBytes(key.length, 8) + (qualifying == null ? 0 : PointTable.arrayBytes(qualifying.length, 8));
    }

    boolean hasKey(long[] k) {
        return Arrays.equals(key, k);
    }

    boolean hasKey(long k) {
        return key.length == 1 && key[0] == k;
    }
}
