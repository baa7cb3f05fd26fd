package io.ketama.quarkus.runtime;

import io.ketama.quarkus.ForwardOutcomes;
import io.ketama.quarkus.MemberAddress;
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
 * This process's part in the cluster over the application's lifetime. On a Hazelcast member:
 * starts its {@link ClusterRings} when the application starts (rings built, migration state
 * followed), places it on the others' rings once the application has started, drains it on a
 * graceful stop and closes it at shutdown. On a Hazelcast client (the application's
 * {@code HazelcastInstance} bean is one, or {@code quarkus.ketama.role=client}): starts its
 * {@link ClientRings}, which follow the members and are on no ring. {@link MemberRingSelector}
 * answers selections from either ({@link #source()}).
 *
 * <p>The build steps register it by name ({@link RegisteredClasses}).
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

    /** This member's part; null on a client. */
    private ClusterRings rings;
    /** The client's view; null on a member. */
    private ClientRings client;

    @PostConstruct
    void start() {
        if (HazelcastRole.isClient(hazelcast)) {
            client = new ClientRings(hazelcast, settings.ring(), settings.migration(), settings.splitAllowedHere(), metrics);
            metrics.bind(client::snapshotNow);
            metrics.bindClientConnected(client::connected);
            client.start();
            LOG.infof("ketama: this application is a Hazelcast client of cluster '%s': its rings follow the %d members "
                    + "(it is on no ring and has no admin plane); migration %s", hazelcast.getConfig().getClusterName(),
                    client.inUse().snapshot().members().size(), client.migration());
            return;
        }
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
        metrics.bindQuorum(rings.quorum()::status);
        LOG.infof("ketama: migration %s on data centre '%s'%s", rings.migration(), settings.datacenter(),
                settings.splitAllowedHere() ? "" : " (not in the split allowlist: v1 in split mode)");
    }

    /**
     * Joins the others' rings once the application has started (after every {@code @Startup} bean,
     * so what serves forwarded keys is in place).
     */
    void serve(@Observes @Priority(Interceptor.Priority.PLATFORM_AFTER + 500) StartupEvent event) {
        if (rings != null) {
            rings.open();
        }
    }

    /**
     * Leaves every member's rings, then tells the application ({@link RingsLeft}). Called on a
     * graceful stop before the HTTP server stops taking requests ({@link DrainOnShutdown}).
     */
    void drain() throws InterruptedException {
        if (rings != null) {
            ringsLeft.fire(rings.drain(clusterSettings.drainTimeout(), clusterSettings.drainQuietPeriod()));
        }
    }

    @PreDestroy
    void stop() {
        if (rings != null) {
            rings.close();
        }
        if (client != null) {
            client.close();
        }
    }

    /**
     * The rings this member keeps current.
     *
     * @throws IllegalStateException on a Hazelcast client, which has no member part (no admin plane)
     */
    ClusterRings rings() {
        if (rings == null) {
            throw new IllegalStateException("this application is a Hazelcast client: it is on no ring and has no admin plane; "
                    + "use a member's");
        }
        return rings;
    }

    /** Whether this application is a Hazelcast client of the cluster (no member part, no admin plane). */
    boolean isClient() {
        return client != null;
    }

    /** Where selections are answered from: this member's rings, or the client's view. */
    RingsSource source() {
        return rings != null ? rings : client;
    }
}
