package io.ketama.quarkus.runtime;

import io.ketama.core.HashStyle;
import io.ketama.core.KetamaRing;

import java.util.Objects;

/**
 * What every member of a cluster must agree on to build identical rings.
 *
 * @param hashStyle         how addresses become ring identities
 * @param v2PointsPerWeight points per unit of weight on the v2 ring (v1 always has nginx's 160), from 1 to
 *                          {@link KetamaRing#MAX_POINTS_PER_WEIGHT} (why that bound: its javadoc)
 * @throws IllegalArgumentException when {@code v2PointsPerWeight} is out of that range, naming its configuration key
 *
 * <p>Public because {@link RingBuilder} and {@link ClusterRings#startOn} take it (see theirs); not an API.
 */
public record RingSettings(HashStyle hashStyle, int v2PointsPerWeight) {

    /** Configuration key of {@link #v2PointsPerWeight()}. */
    public static final String POINTS_KEY = "quarkus.ketama.v2.points-per-weight";

    public RingSettings {
        Objects.requireNonNull(hashStyle, "hashStyle");
        if (!KetamaRing.isPointsPerWeight(v2PointsPerWeight)) {
            throw new IllegalArgumentException(POINTS_KEY + " must be " + KetamaRing.POINTS_PER_WEIGHT_RULE + ", was "
                    + v2PointsPerWeight);
        }
    }
}
