package io.ketama.quarkus.deployment;

import io.ketama.quarkus.RingSelector;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.FeatureBuildItem;

/** Build steps of the ketama extension: the feature, and its beans registered at build time. */
class KetamaProcessor {

    static final String FEATURE = "ketama";

    /** Package-private beans of the runtime module, named because they are not visible from here. */
    private static final String[] INTERNAL_BEANS = {
            "io.ketama.quarkus.KetamaProducers",
            "io.ketama.quarkus.KetamaReadiness",
            "io.ketama.quarkus.KetamaLiveness",
    };

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    @BuildStep
    AdditionalBeanBuildItem beans() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClass(RingSelector.class)
                .addBeanClasses(INTERNAL_BEANS)
                .setUnremovable()
                .build();
    }
}
