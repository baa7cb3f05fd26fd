package io.ketama.quarkus.deployment;

import io.ketama.quarkus.KetamaBuildTimeConfig;
import io.ketama.quarkus.devui.KetamaJsonRpcService;
import io.ketama.quarkus.runtime.KetamaClusterRecorder;
import io.ketama.quarkus.runtime.RegisteredClasses;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.IsLocalDevelopment;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.HotDeploymentWatchedFileBuildItem;
import io.quarkus.deployment.builditem.ModuleOpenBuildItem;
import io.quarkus.deployment.builditem.ShutdownListenerBuildItem;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.deployment.pkg.steps.NativeOrNativeSourcesBuild;
import io.quarkus.runtime.metrics.MetricsFactory;
import io.quarkus.devui.spi.JsonRPCProvidersBuildItem;
import io.quarkus.devui.spi.page.CardPageBuildItem;
import io.quarkus.devui.spi.page.Page;
import io.quarkus.smallrye.health.deployment.spi.HealthBuildItem;
import io.quarkus.vertx.http.deployment.NonApplicationRootPathBuildItem;
import io.quarkus.vertx.http.deployment.RouteBuildItem;
import io.quarkus.vertx.http.runtime.management.ManagementInterfaceBuildTimeConfig;
import org.jboss.logging.Logger;

import org.eclipse.microprofile.config.ConfigProvider;

import java.util.List;
import java.util.Optional;

/**
 * Build steps of the ketama extension: the feature, its beans, and the health checks and meters
 * that exist only when the application has SmallRye Health or Micrometer and they are enabled.
 */
class KetamaProcessor {

    private static final Logger LOG = Logger.getLogger(KetamaProcessor.class);

    static final String FEATURE = "ketama";
    /** Path of the migration admin resource under the management root path ({@code /q} by default). */
    static final String MIGRATION_PATH = "ketama/migration";
    /** Path of the migration ramp admin resource. */
    static final String RAMP_PATH = "ketama/ramp";
    /** Path of the quorum admin resource: the members a migration change needs, and the cluster's expected members. */
    static final String QUORUM_PATH = "ketama/quorum";

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    @BuildStep
    AdditionalBeanBuildItem beans() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(RegisteredClasses.memberBeans())
                .addBeanClasses(RegisteredClasses.producers())
                .setUnremovable()
                .build();
    }

    /** Hazelcast's own configuration files, watched in dev mode: a change restarts the application and its member. */
    static final List<String> HAZELCAST_FILES = List.of("hazelcast.xml", "hazelcast.yaml", "hazelcast.yml");
    /** Hazelcast's automatic module name, the module its accesses are granted to. */
    static final String HAZELCAST_MODULE = "com.hazelcast.core";

    /** The native build stops here: nothing else in the extension would say why. */
    static final String NATIVE_UNSUPPORTED = "quarkus-ketama does not support native images: it runs an embedded Hazelcast"
            + " member, which is neither built nor tested as a native image here. Build the application for the JVM"
            + " (without -Dnative / quarkus.native.enabled) and run it with java -jar.";

    @BuildStep(onlyIf = NativeOrNativeSourcesBuild.class)
    FeatureBuildItem refuseNativeImage() {
        throw new IllegalStateException(NATIVE_UNSUPPORTED);
    }

    /**
     * The JDK internals Hazelcast reads (it warns and runs slower without them): written into the
     * runnable jar's manifest as {@code Add-Opens}, so {@code java -jar} needs no flags. Opening
     * {@code jdk.internal.ref} also exports it, which is all Hazelcast asks there.
     */
    @BuildStep
    void hazelcastModuleAccess(BuildProducer<ModuleOpenBuildItem> opens) {
        opens.produce(new ModuleOpenBuildItem("java.base", HAZELCAST_MODULE, "java.lang", "sun.nio.ch", "jdk.internal.ref"));
        opens.produce(new ModuleOpenBuildItem("java.management", HAZELCAST_MODULE, "sun.management"));
        opens.produce(new ModuleOpenBuildItem("jdk.management", HAZELCAST_MODULE, "com.sun.management.internal"));
    }

    @BuildStep
    void watchHazelcastFiles(BuildProducer<HotDeploymentWatchedFileBuildItem> watched) {
        for (String file : HAZELCAST_FILES) {
            watched.produce(new HotDeploymentWatchedFileBuildItem(file));
        }
        ConfigProvider.getConfig().getOptionalValue("quarkus.ketama.hazelcast.config-file", String.class)
                .ifPresent(file -> watched.produce(new HotDeploymentWatchedFileBuildItem(file)));
    }

    /** The Dev UI card: members, rings, migration, and "who owns this key". */
    @BuildStep(onlyIf = IsLocalDevelopment.class)
    CardPageBuildItem devUiCard() {
        CardPageBuildItem card = new CardPageBuildItem();
        card.addPage(Page.webComponentPageBuilder()
                .title("Rings")
                .icon("font-awesome-solid:circle-nodes")
                .componentLink("qwc-ketama-rings.js"));
        return card;
    }

    @BuildStep(onlyIf = IsLocalDevelopment.class)
    JsonRPCProvidersBuildItem devUiJsonRpc() {
        return new JsonRPCProvidersBuildItem(KetamaJsonRpcService.class);
    }

    /**
     * Consumed only by the SmallRye Health extension: without it this step does not run, so the
     * health classes (and the Health API they implement) are never loaded.
     */
    @BuildStep
    void health(KetamaBuildTimeConfig config, BuildProducer<HealthBuildItem> checks) {
        checks.produce(new HealthBuildItem(RegisteredClasses.readiness(), config.health().enabled()));
        checks.produce(new HealthBuildItem(RegisteredClasses.liveness(), config.health().enabled()));
    }

    /** Meters only with Micrometer; otherwise the runtime's no-op default stands and no Micrometer class is loaded. */
    @BuildStep
    void metrics(KetamaBuildTimeConfig config, Optional<MetricsCapabilityBuildItem> capability,
                 BuildProducer<AdditionalBeanBuildItem> beans) {
        boolean micrometer = capability.map(c -> c.metricsSupported(MetricsFactory.MICROMETER)).orElse(false);
        if (micrometer && config.metrics().enabled()) {
            beans.produce(AdditionalBeanBuildItem.unremovableOf(RegisteredClasses.micrometerMetrics())); // loaded only with Micrometer present
        }
    }

    /**
     * The admin plane ({@code /q/ketama/migration}, {@code /q/ketama/ramp}, {@code /q/ketama/quorum}), mounted only on the management
     * interface: with {@code quarkus.management.enabled=false} there is none, rather than one on the
     * application's public port.
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    void adminPlane(KetamaClusterRecorder recorder, ManagementInterfaceBuildTimeConfig management,
                    NonApplicationRootPathBuildItem paths, BuildProducer<RouteBuildItem> routes) {
        if (!management.enabled()) {
            LOG.infof("ketama: no admin plane (/q/%s): it is served only on the management interface, and "
                    + "quarkus.management.enabled is false", MIGRATION_PATH);
            return;
        }
        routes.produce(paths.routeBuilder().management().route(MIGRATION_PATH).handler(recorder.migrationHandler()).build());
        routes.produce(paths.routeBuilder().management().route(RAMP_PATH).handler(recorder.rampHandler()).build());
        routes.produce(paths.routeBuilder().management().route(QUORUM_PATH).handler(recorder.quorumHandler()).build());
    }

    /** Drains this member at the start of a graceful stop, before the HTTP server stops taking requests. */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    ShutdownListenerBuildItem drainOnShutdown(KetamaClusterRecorder recorder) {
        return new ShutdownListenerBuildItem(recorder.drainListener());
    }
}
