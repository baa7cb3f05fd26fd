package io.ketama.quarkus.runtime;

import io.ketama.quarkus.ForwardOutcomes;
import io.ketama.quarkus.MemberAddress;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingsLeft;

import com.hazelcast.core.HazelcastInstance;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Priority;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.interceptor.Interceptor;
import org.jboss.logging.Logger;

/**
 * This process's member of the rings over the application's lifetime: starts its
 * {@link ClusterRings} when the application starts (rings built, migration state followed),
 * places it on the others' rings once the application has started, drains it on a graceful stop
 * and closes it at shutdown. {@link RingSelector} answers selections from the rings it keeps.
 *
 * <p>Public because {@link RingSelector} (the API) injects it and reads its {@link #rings()}, and the
 * build steps register it by class; not an API.
 */
@Startup
@Singleton
class MemberLifecycle {

    private static final Logger LOG = Logger.getLogger(MemberLifecycle.class);

    @Inject
    KetamaSettings settings;
    @Inject
    ClusterSettings clusterSettings;
    @Inject
    HazelcastInstance hazelcast;
    @Inject
    RingMetrics metrics;
    @Inject
    Instance<ForwardOutcomes> forwardOutcomes;
    @Inject
    Event<RingsLeft> ringsLeft;

    private ClusterRings rings;

    @PostConstruct
    void start() {
        rings = new ClusterRings(hazelcast, new ClusterRings.Settings(settings.ring(), settings.coalesceDelay(),
                settings.migration(), clusterSettings.migrationSource(), settings.splitAllowedHere(),
                clusterSettings.memberAllowlist(), clusterSettings.minMembers(), clusterSettings.forgetFailedAfter(),
                new ConfiguredMigration(settings.migration(), clusterSettings.migrationRevision())), metrics,
                () -> forwardOutcomes.isResolvable() ? forwardOutcomes.get() : null);
        metrics.bind(rings::snapshot);
        rings.start();
        MigrationRamp ramp = rings.ramp();
        metrics.bindMigration(MemberAddress.of(hazelcast.getCluster().getLocalMember()), rings::migration, rings::split,
                ramp::steps, ramp::holds, ramp::rollbacks);
        metrics.bindQuorum(rings::quorum);
        LOG.infof("ketama: migration %s on data centre '%s'%s", rings.migration(), settings.datacenter(),
                settings.splitAllowedHere() ? "" : " (not in the split allowlist: v1 in split mode)");
    }

    /**
     * Joins the others' rings once the application has started (after every {@code @Startup} bean,
     * so what serves forwarded keys is in place).
     */
    void serve(@Observes @Priority(Interceptor.Priority.PLATFORM_AFTER + 500) StartupEvent event) {
        rings.open();
    }

    /**
     * Leaves every member's rings, then tells the application ({@link RingsLeft}). Called on a
     * graceful stop before the HTTP server stops taking requests ({@link DrainOnShutdown}).
     */
    void drain() throws InterruptedException {
        ringsLeft.fire(rings.drain(clusterSettings.drainTimeout(), clusterSettings.drainQuietPeriod()));
    }

    @PreDestroy
    void stop() {
        if (rings != null) {
            rings.close();
        }
    }

    /** The rings this member keeps current. */
    public ClusterRings rings() {
        return rings;
    }
}
