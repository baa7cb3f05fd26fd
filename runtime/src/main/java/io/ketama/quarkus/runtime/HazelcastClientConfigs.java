package io.ketama.quarkus.runtime;

import com.hazelcast.client.config.ClientConfig;
import io.quarkus.runtime.LaunchMode;

/**
 * The Hazelcast client the extension makes with {@code quarkus.ketama.role=client}: the cluster
 * name and member addresses of {@code quarkus.ketama.hazelcast.*}, as the embedded member would
 * use them ({@link HazelcastConfigs}).
 */
final class HazelcastClientConfigs {

    private HazelcastClientConfigs() {
    }

    static ClientConfig of(KetamaSettings settings) {
        KetamaSettings.HazelcastSettings h = settings.hazelcast();
        ClientConfig config = new ClientConfig();
        String name = h.clusterName();
        if (name == null) {
            name = LaunchMode.current() == LaunchMode.DEVELOPMENT ? HazelcastConfigs.DEV_CLUSTER : HazelcastConfigs.DEFAULT_CLUSTER;
        }
        config.setClusterName(name);
        if (h.members() != null) {
            h.members().forEach(config.getNetworkConfig()::addAddress);
        } else {
            config.getNetworkConfig().addAddress("127.0.0.1");
        }
        // a client that loses the cluster keeps trying (its rings stay as last built meanwhile), never gives up and shuts down
        config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(-1);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.setClassLoader(Thread.currentThread().getContextClassLoader());
        return config;
    }
}
