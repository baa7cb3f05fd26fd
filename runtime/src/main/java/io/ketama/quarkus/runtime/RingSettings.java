package io.ketama.quarkus.runtime;

import io.ketama.core.HashStyle;
import io.ketama.core.KetamaRing;

import java.util.Objects;

/**
 * What every member of a cluster must agree on to build identical rings.
 *
 * @param hashStyle         how addresses become ring identities
 * @param hashOptions       the options of a ketama-family style (twemproxy's {@code hash_tag}, Dubbo's
 *                          {@code hash.nodes}); {@link HashStyle.Options#DEFAULTS} for none
 * @param v2PointsPerWeight points per unit of weight on the v2 ring (v1 always has nginx's 160), from 1 to
 *                          {@link KetamaRing#MAX_POINTS_PER_WEIGHT} (why that bound: its javadoc)
 * @throws IllegalArgumentException when {@code v2PointsPerWeight} is out of that range or the style does not
 *                                  take the options, naming the configuration key
 *
 * <p>Public because {@link ClientFollower#follow} takes it (an application outside Quarkus states the
 * members' ring settings); not otherwise an API.
 */
public record RingSettings(HashStyle hashStyle, HashStyle.Options hashOptions, int v2PointsPerWeight) {

    /** Configuration key of {@link #v2PointsPerWeight()}. */
    public static final String POINTS_KEY = "quarkus.ketama.v2.points-per-weight";
    /** Configuration key of the hash tag in {@link #hashOptions()}. */
    public static final String HASH_TAG_KEY = "quarkus.ketama.hash-tag";
    /** Configuration key of {@code hash.nodes} in {@link #hashOptions()}. */
    public static final String HASH_NODES_KEY = "quarkus.ketama.hash-nodes";

    public RingSettings {
        Objects.requireNonNull(hashStyle, "hashStyle");
        Objects.requireNonNull(hashOptions, "hashOptions");
        if (!KetamaRing.isPointsPerWeight(v2PointsPerWeight)) {
            throw new IllegalArgumentException(POINTS_KEY + " must be " + KetamaRing.POINTS_PER_WEIGHT_RULE + ", was "
                    + v2PointsPerWeight);
        }
        // each option checked on its own, so the message names the key that was set in vain
        requireTakes(hashStyle, HashStyle.Options.DEFAULTS.withHashTag(hashOptions.hashTag()), HASH_TAG_KEY);
        requireTakes(hashStyle, HashStyle.Options.DEFAULTS.withHashNodes(hashOptions.hashNodes()), HASH_NODES_KEY);
    }

    private static void requireTakes(HashStyle style, HashStyle.Options option, String key) {
        try {
            style.requireTakes(option);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + " is set, but " + e.getMessage() + " (quarkus.ketama.hash-style); unset it or change the style", e);
        }
    }

    /** A style without options. */
    public RingSettings(HashStyle hashStyle, int v2PointsPerWeight) {
        this(hashStyle, HashStyle.Options.DEFAULTS, v2PointsPerWeight);
    }
}
