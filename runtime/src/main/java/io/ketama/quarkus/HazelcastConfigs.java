package io.ketama.quarkus;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.TcpIpConfig;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.UncheckedIOException;
import java.util.List;

/** The embedded member's Hazelcast {@link Config}, from {@code quarkus.ketama.hazelcast.*} or a file. */
final class HazelcastConfigs {

    private HazelcastConfigs() {
    }

    static Config of(KetamaSettings settings) {
        KetamaSettings.HazelcastSettings h = settings.hazelcast();
        Config config = h.configFile() != null ? load(h.configFile()) : programmatic(h);
        // Members deserialize the application's classes (tasks the app sends through the executor).
        config.setClassLoader(Thread.currentThread().getContextClassLoader());
        config.setProperty("hazelcast.phone.home.enabled", "false");
        // Quarkus shuts the member down at application stop (after the beans that use it), not a JVM hook.
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        MemberAttributes.publish(config, settings.weight(), settings.features(), settings.datacenter(), settings.nodeId());
        return config;
    }

    /**
     * Lets the application's {@code customizers} change the finished {@code config}, in order, then
     * sets the ketama member attributes again, so they hold what the extension's settings say
     * whatever a customizer did.
     */
    static Config customized(Config config, List<HazelcastConfigCustomizer> customizers, KetamaSettings settings) {
        if (customizers.isEmpty()) {
            return config;
        }
        for (HazelcastConfigCustomizer customizer : customizers) {
            customizer.customize(config);
        }
        MemberAttributes.publish(config, settings.weight(), settings.features(), settings.datacenter(), settings.nodeId());
        return config;
    }

    private static Config load(String location) {
        File file = new File(location);
        if (file.isFile()) {
            try {
                return Config.loadFromFile(file);
            } catch (FileNotFoundException e) {
                throw new UncheckedIOException("quarkus.ketama.hazelcast.config-file '" + location + "' cannot be read", e);
            }
        }
        return Config.loadFromClasspath(Thread.currentThread().getContextClassLoader(), location);
    }

    private static Config programmatic(KetamaSettings.HazelcastSettings h) {
        Config config = new Config();
        config.setClusterName(h.clusterName());
        NetworkConfig network = config.getNetworkConfig();
        network.setPort(h.port()).setPortAutoIncrement(h.portAutoIncrement());
        if (h.interfaceAddress() != null) {
            network.getInterfaces().setEnabled(true).addInterface(h.interfaceAddress());
        }
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        TcpIpConfig tcp = join.getTcpIpConfig();
        if (h.kubernetes()) {
            tcp.setEnabled(false);
            join.getKubernetesConfig().setEnabled(true).setProperty("service-port", Integer.toString(h.port()));
            if (h.serviceDns() != null) {
                join.getKubernetesConfig().setProperty("service-dns", h.serviceDns());
            }
        } else {
            tcp.setEnabled(true);
            for (String member : h.members()) {
                tcp.addMember(member); // one by one: a port range with interfaces enabled crashes start-up
            }
        }
        return config;
    }
}
