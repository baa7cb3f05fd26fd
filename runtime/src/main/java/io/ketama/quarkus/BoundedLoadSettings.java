package io.ketama.quarkus;

import io.ketama.core.BoundedLoads;
import java.util.List;

/**
 * {@code quarkus.ketama.bounded-load.*} after validation ({@link KetamaConfig.BoundedLoad}).
 *
 * @param enabled whether {@link RingSelector#selectBounded} applies the bound
 * @param factor  the balance factor, {@link BoundedLoads#isFactor a factor}
 */
public record BoundedLoadSettings(boolean enabled, double factor) {

    static final String KEY = "quarkus.ketama.bounded-load.";

    /** The configuration's defaults: off, factor 1.25. */
    public static final BoundedLoadSettings DEFAULT = new BoundedLoadSettings(false, 1.25);

    public BoundedLoadSettings {
        if (!BoundedLoads.isFactor(factor)) {
            throw new IllegalArgumentException(KEY + "factor must be " + BoundedLoads.FACTOR_RULE + "; was " + factor);
        }
    }

    /**
     * The settings of {@code config}.
     *
     * @throws IllegalArgumentException naming the key, the value and what is allowed
     */
    public static BoundedLoadSettings of(KetamaConfig config) {
        return new BoundedLoadSettings(config.boundedLoad().enabled(), config.boundedLoad().factor());
    }

    /** Validates {@code config}, adding one line per invalid key to {@code problems}; null when any was added. */
    static BoundedLoadSettings from(KetamaConfig config, List<String> problems) {
        try {
            return of(config);
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
            return null;
        }
    }
}
