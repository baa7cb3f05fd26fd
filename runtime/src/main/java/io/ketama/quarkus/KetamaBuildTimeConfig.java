package io.ketama.quarkus;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The parts of the extension chosen when the application is built: whether it contributes health
 * checks and meters. Changing them needs a rebuild.
 */
@ConfigMapping(prefix = "quarkus.ketama")
@ConfigRoot(phase = ConfigPhase.BUILD_TIME)
public interface KetamaBuildTimeConfig {

    /** Health checks. */
    Health health();

    /** Metrics. */
    Metrics metrics();

    /** Health checks. */
    interface Health {

        /**
         * Whether the readiness check ({@code ketama-rings}: the rings are built and contain this
         * member) and the liveness check ({@code ketama-hazelcast}: the member runs) are
         * published, when the {@code quarkus-smallrye-health} extension is present.
         */
        @WithDefault("true")
        boolean enabled();
    }

    /** Metrics. */
    interface Metrics {

        /**
         * Whether the extension's meters ({@code ketama_*}) are registered, when the
         * {@code quarkus-micrometer} extension is present.
         */
        @WithDefault("true")
        boolean enabled();
    }
}
