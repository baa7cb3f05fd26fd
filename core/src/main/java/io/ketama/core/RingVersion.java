package io.ketama.core;

/**
 * How a ring's points are made and which point survives a hash collision. Both versions store
 * points in the same compact layout and answer lookups the same way.
 */
public enum RingVersion {
    /**
     * nginx's {@code hash ... consistent} and pingora-ketama's default: 160 points per weight
     * unit; of colliding points, the one whose node comes first in input order survives.
     */
    V1(160),
    /**
     * pingora-ketama's compact ring: points per weight unit tunable (default 16); of colliding
     * points, the one whose node has the smallest {@link HashIdentity} survives, so every member
     * builds the same ring whatever order it learned the nodes in.
     */
    V2(16);

    private final int defaultPointsPerWeight;

    RingVersion(int defaultPointsPerWeight) {
        this.defaultPointsPerWeight = defaultPointsPerWeight;
    }

    public int defaultPointsPerWeight() {
        return defaultPointsPerWeight;
    }

    /** {@code v1} or {@code v2} ({@link EnumLabels}). */
    public String label() {
        return EnumLabels.label(this);
    }

    /**
     * Parses {@code v1} / {@code v2} (any case).
     *
     * @param what names the value in the error (a configuration key or an option)
     * @throws IllegalArgumentException naming {@code what} and the allowed values
     */
    public static RingVersion parse(String text, String what) {
        return EnumLabels.parse(RingVersion.class, text, what);
    }
}
