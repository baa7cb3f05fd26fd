package io.ketama.quarkus.runtime;

import io.ketama.quarkus.HazelcastConfigCustomizer;
import io.ketama.quarkus.KetamaConfig;
import io.ketama.quarkus.MemberAddress;
import io.ketama.quarkus.MemberAttributes;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import io.quarkus.arc.All;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Produces the validated settings and, unless the application produces its own, the embedded
 * Hazelcast member.
 *
 * <p>The build steps register it by name ({@link RegisteredClasses}).
 */
@Singleton
class KetamaProducers {

    private static final Logger LOG = Logger.getLogger(KetamaProducers.class);

    /** Validation happens here, before anything starts: invalid configuration stops start-up. */
    @Produces
    @Singleton
    KetamaSettings settings(KetamaConfig config) {
        return KetamaSettings.from(config);
    }

    /** The cluster-control keys, validated before anything starts. */
    @Produces
    @Singleton
    ClusterSettings clusterSettings(KetamaConfig config) {
        return ClusterSettings.from(config);
    }

    /** No meters: replaced by {@link MicrometerRingMetrics} when the application has Micrometer and metrics are enabled. */
    @Produces
    @Singleton
    @DefaultBean
    RingMetrics noMetrics() {
        return RingMetrics.NONE;
    }

    @Produces
    @Singleton
    @DefaultBean
    HazelcastInstance hazelcast(KetamaConfig ketama, KetamaSettings settings, ClusterSettings clusterSettings,
                                @All List<HazelcastConfigCustomizer> customizers) {
        if (ketama.role() == KetamaConfig.Role.CLIENT) {
            HazelcastInstance client = HazelcastClient.newHazelcastClient(HazelcastClientConfigs.of(settings));
            LOG.infof("ketama: Hazelcast client connected to cluster '%s' (%d members)", client.getConfig().getClusterName(),
                    client.getCluster().getMembers().size());
            return client;
        }
        Config config = HazelcastConfigs.customized(HazelcastConfigs.of(settings), customizers, settings);
        new ConfiguredMigration(settings.migration(), clusterSettings.migrationRevision()).publishOn(config);
        // last: a filter the application set itself is kept
        HazelcastInstance instance = HazelcastHardening.newMember(config, clusterSettings.memberAllowlist());
        LOG.infof("ketama: embedded Hazelcast member %s joined cluster '%s' (%d members)",
                MemberAddress.of(instance.getCluster().getLocalMember()), instance.getConfig().getClusterName(),
                instance.getCluster().getMembers().size());
        return instance;
    }

    void shutdown(@Disposes HazelcastInstance instance) {
        instance.shutdown();
    }
}
