package io.ketama.quarkus.runtime;

import io.ketama.quarkus.HazelcastConfigCustomizer;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.RingSelector;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.TcpIpConfig;
import com.hazelcast.internal.config.override.ExternalConfigurationOverride;
import io.quarkus.runtime.LaunchMode;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * The embedded member's Hazelcast {@link Config}, built in layers, each overriding the one before:
 * <ol>
 *   <li><b>Hazelcast's own file</b>, found as Hazelcast finds it: the file named by
 *       {@code quarkus.ketama.hazelcast.config-file}, else by {@code -Dhazelcast.config}, else
 *       {@code hazelcast.xml}, {@code .yaml} or {@code .yml} in the working directory, else on the
 *       class path. Without one, the extension's base: TCP/IP join on 127.0.0.1, multicast and
 *       auto-detection off, port 5701 (next ports when taken), cluster {@code ketama}
 *       ({@code ketama-dev} in dev mode, so a dev-mode member never joins a running app).</li>
 *   <li><b>Hazelcast's overrides</b>: {@code HZ_*} environment variables and {@code hz.*} system
 *       properties ({@code HZ_CLUSTERNAME=x}, {@code -Dhz.network.port.port=5801}).</li>
 *   <li><b>{@code quarkus.ketama.hazelcast.*}</b> keys that are set.</li>
 *   <li><b>Fault timing</b>: how soon a silent member is dropped ({@code failure-timeout}) and how
 *       often split-off parts look for each other to merge ({@code merge-interval}): the key when
 *       set, else the Hazelcast file's or a system property's value, else 10s each instead of
 *       Hazelcast's 60s and 120s (300s for the first look), so a partitioned member leaves the
 *       rings in seconds and a healed partition merges in seconds, not minutes.</li>
 *   <li><b>Tests</b> (the test launch mode): a cluster name unique to the run and a join that finds
 *       only this member, on loopback only, unless {@code cluster-name} resp. {@code members} (or
 *       Kubernetes discovery) is set by a {@code quarkus.ketama.hazelcast.*} key: a test never
 *       joins a developer's running member, whatever the files and environment say.</li>
 *   <li><b>Always</b>: the ketama member attributes, the application's class loader, phone-home and
 *       Hazelcast's own shutdown hook off (Quarkus stops the member after the beans that use it).</li>
 * </ol>
 * The application's {@link HazelcastConfigCustomizer}s then change the result ({@link #customized}).
 */
final class HazelcastConfigs {

    /** Names Hazelcast looks for, in the working directory and then on the class path. */
    static final List<String> DEFAULT_FILES = List.of("hazelcast.xml", "hazelcast.yaml", "hazelcast.yml");
    static final String DEFAULT_CLUSTER = "ketama";
    static final String DEV_CLUSTER = "ketama-dev";
    static final String TEST_CLUSTER_PREFIX = "ketama-test-";
    static final int DEFAULT_PORT = 5701;
    private static final String BIND_ANY = "hazelcast.socket.bind.any";
    static final String MAX_NO_HEARTBEAT = "hazelcast.max.no.heartbeat.seconds";
    static final String HEARTBEAT_INTERVAL = "hazelcast.heartbeat.interval.seconds";
    static final String MERGE_FIRST_RUN = "hazelcast.merge.first.run.delay.seconds";
    static final String MERGE_NEXT_RUN = "hazelcast.merge.next.run.delay.seconds";
    static final String MASTERSHIP_CLAIM = "hazelcast.mastership.claim.timeout.seconds";
    static final Duration DEFAULT_FAILURE_TIMEOUT = Duration.ofSeconds(10);
    static final Duration DEFAULT_MERGE_INTERVAL = Duration.ofSeconds(10);
    /**
     * The least mastership claim timeout the extension sets. Hazelcast makes it the number of tries
     * of a claim to a member as well as their time limit, and a member that has not yet suspected the
     * old master answers "retry" at once: retried four times at once, then after 1, 2, 4 ... 500 ms.
     * 10 tries are over in about 0.2 s, 30 in about 8.5 s. The survivors of a paused master suspect
     * it on their own heartbeat checks, 0.03-1.7 s apart in the runs: with 10 the claimant left out a
     * survivor 0.2 s or more behind it and they became two clusters of one for the pause (plain
     * Hazelcast, three members: 4 of 10 runs); with 30, 0 of 10 (issue 40, point 3;
     * load-tests/RESULTS.md, "The paused master").
     */
    static final Duration MIN_MASTERSHIP_CLAIM = Duration.ofSeconds(30);
    /** Heartbeats per failure timeout are at least this many, so one late heartbeat drops nobody. */
    private static final Duration HEARTBEAT = Duration.ofSeconds(1);

    private HazelcastConfigs() {
    }

    static Config of(KetamaSettings settings) {
        return of(settings, LaunchMode.current());
    }

    static Config of(KetamaSettings settings, LaunchMode mode) {
        KetamaSettings.HazelcastSettings h = settings.hazelcast();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        Config config = file(h.configFile(), loader);
        if (config == null) {
            config = base(mode);
        }
        new ExternalConfigurationOverride().overwriteMemberConfig(config);
        overlay(config, h);
        faultTiming(config, h);
        if (mode == LaunchMode.TEST) {
            isolate(config, h);
        }
        // Members deserialize the application's classes (tasks the app sends through the executor).
        config.setClassLoader(loader);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        publish(config, settings);
        // The others place this member on their rings only once it says it serves (RingSelector does at start-up).
        MemberAttributes.gate(config);
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
        publish(config, settings);
        MemberAttributes.gate(config);
        return config;
    }

    /** The Hazelcast file to start from, or null when there is none. */
    private static Config file(String configFile, ClassLoader loader) {
        if (configFile != null) {
            return load(configFile, loader, "quarkus.ketama.hazelcast.config-file");
        }
        String property = System.getProperty("hazelcast.config");
        if (property != null && !property.isBlank()) {
            return load(property.startsWith("classpath:") ? property.substring("classpath:".length()) : property, loader,
                    "-Dhazelcast.config");
        }
        for (String name : DEFAULT_FILES) {
            if (new File(name).isFile()) {
                return load(name, loader, "the working directory");
            }
        }
        for (String name : DEFAULT_FILES) {
            URL url = loader.getResource(name);
            if (url != null) {
                return Config.loadFromClasspath(loader, name);
            }
        }
        return null;
    }

    /** A file path, else a class-path resource. */
    private static Config load(String location, ClassLoader loader, String source) {
        File file = new File(location);
        if (file.isFile()) {
            try {
                return Config.loadFromFile(file);
            } catch (FileNotFoundException e) {
                throw new UncheckedIOException("Hazelcast configuration '" + location + "' (" + source + ") cannot be read", e);
            }
        }
        if (loader.getResource(location) == null) {
            throw new IllegalStateException("Hazelcast configuration '" + location + "' (" + source
                    + ") is neither a readable file nor a class-path resource");
        }
        return Config.loadFromClasspath(loader, location);
    }

    /** The extension's starting point when there is no Hazelcast file. */
    static Config base(LaunchMode mode) {
        Config config = new Config();
        config.setClusterName(mode == LaunchMode.DEVELOPMENT ? DEV_CLUSTER : DEFAULT_CLUSTER);
        config.getNetworkConfig().setPort(DEFAULT_PORT).setPortAutoIncrement(true);
        JoinConfig join = onlyTcpIp(config);
        join.getTcpIpConfig().addMember("127.0.0.1");
        return config;
    }

    private static void overlay(Config config, KetamaSettings.HazelcastSettings h) {
        if (h.clusterName() != null) {
            config.setClusterName(h.clusterName());
        }
        NetworkConfig network = config.getNetworkConfig();
        if (h.port() != null) {
            network.setPort(h.port());
        }
        if (h.portAutoIncrement() != null) {
            network.setPortAutoIncrement(h.portAutoIncrement());
        }
        if (h.interfaceAddress() != null) {
            network.getInterfaces().setEnabled(true).clear().addInterface(h.interfaceAddress());
            listenOnTheInterfaceOnly(config);
        }
        if (Boolean.TRUE.equals(h.kubernetes())) {
            JoinConfig join = onlyTcpIp(config);
            join.getTcpIpConfig().setEnabled(false);
            join.getKubernetesConfig().setEnabled(true).setProperty("service-port", Integer.toString(network.getPort()));
            if (h.serviceDns() != null) {
                join.getKubernetesConfig().setProperty("service-dns", h.serviceDns());
            }
        } else if (h.members() != null) {
            TcpIpConfig tcp = onlyTcpIp(config).getTcpIpConfig();
            for (String member : h.members()) {
                tcp.addMember(member); // one by one: a port range with interfaces enabled crashes start-up
            }
        } else if (Boolean.FALSE.equals(h.kubernetes())) {
            network.getJoin().getKubernetesConfig().setEnabled(false);
        }
    }

    /** See the class comment: the key, else the file's or a system property's value, else ours. */
    private static void faultTiming(Config config, KetamaSettings.HazelcastSettings h) {
        boolean failureTimeoutSet = setSeconds(config, MAX_NO_HEARTBEAT, h.failureTimeout(), DEFAULT_FAILURE_TIMEOUT);
        if (failureTimeoutSet) {
            // Hazelcast's 5 s heartbeat would leave two heartbeats per 10 s: one late packet would drop a member
            setSeconds(config, HEARTBEAT_INTERVAL, null, HEARTBEAT);
            // When the master is the one cut off or paused, the member that takes over asks every other
            // member for its member list; one that has not yet suspected the master itself is asked
            // again until this runs out (Hazelcast: 120 s), and left out after: 30 s, or the failure
            // timeout when longer, so a survivor that suspects the master seconds after the claimant
            // joins its cluster instead of forming one of its own (MIN_MASTERSHIP_CLAIM).
            Duration failureTimeout = h.failureTimeout() == null ? DEFAULT_FAILURE_TIMEOUT : h.failureTimeout();
            setSeconds(config, MASTERSHIP_CLAIM, null,
                    failureTimeout.compareTo(MIN_MASTERSHIP_CLAIM) > 0 ? failureTimeout : MIN_MASTERSHIP_CLAIM);
        }
        Duration merge = h.mergeInterval();
        setSeconds(config, MERGE_FIRST_RUN, merge, DEFAULT_MERGE_INTERVAL);
        setSeconds(config, MERGE_NEXT_RUN, merge, DEFAULT_MERGE_INTERVAL);
    }

    /**
     * Sets {@code property} to {@code key} when set, else to {@code fallback} unless the file or a
     * system property set it; returns whether this method set it.
     */
    private static boolean setSeconds(Config config, String property, Duration key, Duration fallback) {
        if (key != null) {
            config.setProperty(property, Long.toString(key.toSeconds()));
            return true;
        }
        if (config.getProperties().getProperty(property) == null && System.getProperty(property) == null) {
            config.setProperty(property, Long.toString(fallback.toSeconds()));
            return true;
        }
        return false;
    }

    /**
     * Hazelcast publishes the interface it is given but listens on every address of the host unless
     * {@value #BIND_ANY} is false: the key says bind, so the member listens on that address only. A
     * value from the Hazelcast file or {@code -Dhazelcast.socket.bind.any} stands.
     */
    private static void listenOnTheInterfaceOnly(Config config) {
        if (config.getProperties().getProperty(BIND_ANY) == null && System.getProperty(BIND_ANY) == null) {
            config.setProperty(BIND_ANY, "false");
        }
    }

    /** In tests: a cluster of this run only, unless the keys say otherwise. */
    private static void isolate(Config config, KetamaSettings.HazelcastSettings h) {
        if (h.clusterName() == null) {
            config.setClusterName(TEST_CLUSTER_PREFIX + UUID.randomUUID());
        }
        if (h.members() == null && !Boolean.TRUE.equals(h.kubernetes())) {
            onlyTcpIp(config); // no members to ask: the member forms a cluster of one
            if (h.interfaceAddress() == null) {
                // nobody needs to reach a cluster of one: listen on loopback only
                config.getNetworkConfig().getInterfaces().setEnabled(true).clear().addInterface("127.0.0.1");
                config.setProperty(BIND_ANY, "false");
            }
        }
    }

    /** Replaces the join with TCP/IP and an empty member list, every discovery mechanism off. */
    private static JoinConfig onlyTcpIp(Config config) {
        JoinConfig join = new JoinConfig();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true);
        config.getNetworkConfig().setJoin(join);
        if (config.getAdvancedNetworkConfig().isEnabled()) {
            config.getAdvancedNetworkConfig().setJoin(join);
        }
        return join;
    }

    /** This member's ketama attributes, as its settings say. */
    private static void publish(Config config, KetamaSettings settings) {
        MemberAttributes.publish(config, settings.weight(), settings.features(), settings.datacenter(), settings.nodeId());
        if (settings.listIndex() != null) {
            MemberAttributes.listIndex(config, settings.listIndex());
        }
    }
}
