package io.ketama.quarkus.deployment;

import io.ketama.quarkus.KetamaBuildTimeConfig;
import io.ketama.quarkus.RingSelector;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.runtime.metrics.MetricsFactory;
import io.quarkus.smallrye.health.deployment.spi.HealthBuildItem;

import java.util.Optional;

/**
 * Build steps of the ketama extension: the feature, its beans, and the health checks and meters
 * that exist only when the application has SmallRye Health or Micrometer and they are enabled.
 */
class KetamaProcessor {

    static final String FEATURE = "ketama";

    /** Package-private classes of the runtime module, named because they are not visible from here. */
    static final String PRODUCERS = "io.ketama.quarkus.KetamaProducers";
    static final String READINESS = "io.ketama.quarkus.KetamaReadiness";
    static final String LIVENESS = "io.ketama.quarkus.KetamaLiveness";
    static final String MICROMETER_METRICS = "io.ketama.quarkus.MicrometerRingMetrics";

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    @BuildStep
    AdditionalBeanBuildItem beans() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClass(RingSelector.class)
                .addBeanClasses(PRODUCERS)
                .setUnremovable()
                .build();
    }

    /** Consumed only by the SmallRye Health extension; without it these classes are never loaded. */
    @BuildStep
    void health(KetamaBuildTimeConfig config, BuildProducer<HealthBuildItem> checks) {
        checks.produce(new HealthBuildItem(READINESS, config.health().enabled()));
        checks.produce(new HealthBuildItem(LIVENESS, config.health().enabled()));
    }

    /** Meters only with Micrometer; otherwise the runtime's no-op default stands and no Micrometer class is loaded. */
    @BuildStep
    void metrics(KetamaBuildTimeConfig config, Optional<MetricsCapabilityBuildItem> capability,
                 BuildProducer<AdditionalBeanBuildItem> beans) {
        boolean micrometer = capability.map(c -> c.metricsSupported(MetricsFactory.MICROMETER)).orElse(false);
        if (micrometer && config.metrics().enabled()) {
            beans.produce(AdditionalBeanBuildItem.unremovableOf(MICROMETER_METRICS));
        }
    }
}
