package io.ketama.testing;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A real Hazelcast member for tests, on loopback only: it binds and publishes 127.0.0.1, joins by
 * TCP-IP exactly the listed ports on 127.0.0.1 (multicast and auto-detection off), sends no
 * phone-home and leaves shutting down to the test (no JVM shutdown hook). A test adds what it
 * needs on top (member attributes, serialization, executors) and starts it with
 * {@code Hazelcast.newHazelcastInstance(config)}. The same member as the extension's
 * {@code quarkus.ketama.hazelcast.*} keys: {@link #extensionKeys}.
 *
 * <p>Concurrent test runs on one machine (several engineers, several modules) must neither join
 * each other nor fight over ports: every cluster gets a name of its own (e.g. {@link #clusterName}),
 * and a member that need not sit on a known port binds the first free port of a range
 * ({@link #firstFreePort}) by Hazelcast's own port auto-increment, which tries each port by
 * binding it. Picking a port that looks free and binding it later loses it to any other process
 * that binds in between.
 */
public final class LoopbackHazelcast {

    public static final String HOST = "127.0.0.1";

    private LoopbackHazelcast() {
    }

    /**
     * {@code prefix} followed by this JVM's process id: a cluster no other test run on the machine
     * joins, named alike in every class loader of this JVM (a {@code QuarkusUnitTest} initializes
     * the test class again in the application's class loader, so a random name would differ
     * between the application's configuration and the test's own members).
     */
    public static String clusterName(String prefix) {
        return prefix + "-" + ProcessHandle.current().pid();
    }

    /** A member of {@code clusterName} on {@code port} (and no other) that joins the members at {@code joinPorts}. */
    public static Config fixedPort(String clusterName, int port, Collection<Integer> joinPorts) {
        Config config = base(clusterName, joinPorts);
        config.getNetworkConfig().setPort(port).setPortAutoIncrement(false);
        return config;
    }

    /**
     * A member of {@code clusterName} on the first port from {@code first} to {@code last} it can
     * bind, that joins the members at {@code joinPorts}; its port is known once it has started
     * ({@code hz.getCluster().getLocalMember().getAddress().getPort()}).
     */
    public static Config firstFreePort(String clusterName, int first, int last, Collection<Integer> joinPorts) {
        if (first > last) {
            throw new IllegalArgumentException("empty port range " + first + ".." + last);
        }
        Config config = base(clusterName, joinPorts);
        config.getNetworkConfig().setPort(first).setPortAutoIncrement(true).setPortCount(last - first + 1);
        return config;
    }

    /**
     * The extension's {@code quarkus.ketama.hazelcast.*} keys for the same member: cluster
     * {@code clusterName} on 127.0.0.1, on {@code port} or (with {@code firstFree}) the first port
     * from there it can bind, joining {@code joinPorts}. With no ports to join, {@code members}
     * and {@code interface} stay unset: in the test launch mode the extension's member then joins
     * nobody, listens on 127.0.0.1 only, and the others join it.
     */
    public static Map<String, String> extensionKeys(String clusterName, int port, boolean firstFree, Collection<Integer> joinPorts) {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("quarkus.ketama.hazelcast.cluster-name", clusterName);
        keys.put("quarkus.ketama.hazelcast.port", Integer.toString(port));
        keys.put("quarkus.ketama.hazelcast.port-auto-increment", Boolean.toString(firstFree));
        if (!joinPorts.isEmpty()) {
            keys.put("quarkus.ketama.hazelcast.interface", HOST);
            keys.put("quarkus.ketama.hazelcast.members",
                    joinPorts.stream().map(p -> HOST + ":" + p).collect(Collectors.joining(",")));
        }
        return keys;
    }

    /** The ports from {@code first} to {@code last}. */
    public static List<Integer> ports(int first, int last) {
        List<Integer> ports = new ArrayList<>(Math.max(0, last - first + 1));
        for (int p = first; p <= last; p++) {
            ports.add(p);
        }
        return ports;
    }

    private static Config base(String clusterName, Collection<Integer> joinPorts) {
        Config config = new Config();
        config.setClusterName(clusterName);
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface(HOST);
        config.setProperty("hazelcast.socket.bind.any", "false"); // listen on 127.0.0.1, not on every interface
        JoinConfig join = config.getNetworkConfig().getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true);
        for (int p : joinPorts) {
            join.getTcpIpConfig().addMember(HOST + ":" + p);
        }
        return config;
    }
}
