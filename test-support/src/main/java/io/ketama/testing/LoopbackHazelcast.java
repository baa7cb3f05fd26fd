package io.ketama.testing;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;

import java.util.Collection;
import java.util.LinkedHashMap;
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
 * <p>Concurrent test runs on one machine (several checkouts, parallel CI jobs) must neither join
 * each other nor fight over ports: every cluster gets a name of its own (e.g. {@link #clusterName}),
 * and every port is chosen at run time ({@link FreePorts}, {@link MemberPorts}), never written in a
 * test. A member either sits on a known port with Hazelcast's port auto-increment off
 * ({@link #fixedPort}: a port lost to another process fails the start, which {@link MemberPorts#bind}
 * retries on a new port, instead of moving the member to a port in someone else's member list), or
 * takes the first port of a run this JVM took that it can bind ({@link #anyFreePort}: auto-increment
 * over that run only).
 */
public final class LoopbackHazelcast {

    public static final String HOST = "127.0.0.1";
    /** Ports taken for a member of {@link #anyFreePort}. */
    static final int RUN = 4;

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
     * A member of {@code clusterName} on the first port it can bind of {@value #RUN} free ports
     * taken for it ({@link FreePorts#take}; if another process took one since, Hazelcast's port
     * auto-increment moves on within the run, never past it), that joins the members at
     * {@code joinPorts}; its port is known once it has started
     * ({@code hz.getCluster().getLocalMember().getAddress().getPort()}).
     */
    public static Config anyFreePort(String clusterName, Collection<Integer> joinPorts) {
        Config config = base(clusterName, joinPorts);
        config.getNetworkConfig().setPort(FreePorts.take(RUN).get(0)).setPortAutoIncrement(true).setPortCount(RUN);
        return config;
    }

    /**
     * The extension's {@code quarkus.ketama.hazelcast.*} keys for the same member: cluster
     * {@code clusterName} on 127.0.0.1, on {@code port} and no other (auto-increment off), joining
     * {@code joinPorts}. With no ports to join, {@code members} and {@code interface} stay unset: in
     * the test launch mode the extension's member then joins nobody, listens on 127.0.0.1 only, and
     * the others join it.
     */
    public static Map<String, String> extensionKeys(String clusterName, int port, Collection<Integer> joinPorts) {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("quarkus.ketama.hazelcast.cluster-name", clusterName);
        keys.put("quarkus.ketama.hazelcast.port", Integer.toString(port));
        keys.put("quarkus.ketama.hazelcast.port-auto-increment", "false");
        if (!joinPorts.isEmpty()) {
            keys.put("quarkus.ketama.hazelcast.interface", HOST);
            keys.put("quarkus.ketama.hazelcast.members", memberList(joinPorts));
        }
        return keys;
    }

    /** {@code 127.0.0.1:p1,127.0.0.1:p2,...}: members listed one by one (a range crashes Hazelcast where interfaces are set). */
    public static String memberList(Collection<Integer> ports) {
        return ports.stream().map(p -> HOST + ":" + p).collect(Collectors.joining(","));
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
