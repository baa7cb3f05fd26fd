package io.ketama.quarkus.deployment;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.core.HashStyle;
import io.ketama.quarkus.ClusterRings;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSource;
import io.ketama.quarkus.RingSettings;
import io.ketama.quarkus.RingsLeft;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.testing.Await;
import io.ketama.testing.LoopbackHazelcast;
import io.ketama.testing.StartedMembers;
import io.quarkus.test.QuarkusUnitTest;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.shrinkwrap.api.spec.JavaArchive;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A test cluster on 127.0.0.1 ({@link LoopbackHazelcast}): the application's embedded member on
 * the first port and plain Hazelcast members on the others. Each test class takes its own ports
 * from 5801..5849 (the cluster-control tests from 20701..20899) and its own cluster name, which
 * {@link LoopbackHazelcast#clusterName} makes this test run's own.
 */
final class TestCluster implements AutoCloseable {

    static final Duration DEADLINE = Duration.ofSeconds(30);

    final String name;
    final int appPort;
    final int[] ports;
    private final StartedMembers started = new StartedMembers();
    private final java.util.Map<HazelcastInstance, ClusterRings> running = new java.util.HashMap<>();

    /** @param ports the application's port first, then the ports plain members may use */
    TestCluster(String name, int... ports) {
        this.name = LoopbackHazelcast.clusterName(name);
        this.appPort = ports[0];
        this.ports = ports.clone();
        for (int p : ports) {
            if ((p < 5801 || p > 5849) && (p < 20701 || p > 20899)) {
                throw new IllegalArgumentException("test ports must be in 5801..5849 (or 20701..20899, cluster-control tests), was " + p);
            }
        }
    }

    /**
     * The port the running application's management interface listens on, where the test gave it
     * {@code quarkus.management.test-port=0} (any free port: tests never collide over a fixed one).
     */
    static int managementPort() {
        int port = ConfigProvider.getConfig().getValue("quarkus.management.test-port", Integer.class);
        if (port <= 0) {
            throw new IllegalStateException("the management interface has not started: its test port is " + port);
        }
        return port;
    }

    /** The application configured to join this cluster, with the given extra properties (key, value, ...). */
    QuarkusUnitTest app(String... extra) {
        return app(jar -> { }, extra);
    }

    /** {@link #app(String...)} with more content in the application archive. */
    QuarkusUnitTest app(Consumer<JavaArchive> archive, String... extra) {
        QuarkusUnitTest test = new QuarkusUnitTest()
                .withApplicationRoot(jar -> archive.accept(jar.addClass(TestCluster.class)))
                .overrideConfigKey("quarkus.log.category.\"com.hazelcast\".level", "WARN")
                .overrideConfigKey("quarkus.http.test-port", "0");
        LoopbackHazelcast.extensionKeys(name, appPort, false, portList()).forEach(test::overrideConfigKey);
        for (int i = 0; i < extra.length; i += 2) {
            test.overrideConfigKey(extra[i], extra[i + 1]);
        }
        return test;
    }

    String memberList() {
        return IntStream.of(ports).mapToObj(p -> LoopbackHazelcast.HOST + ":" + p).collect(Collectors.joining(","));
    }

    private List<Integer> portList() {
        return IntStream.of(ports).boxed().toList();
    }

    /** Starts a plain member on {@code port} with the given ketama attributes (nodeId may be null). */
    HazelcastInstance start(int port, int weight, Set<String> features, String nodeId) {
        Config config = plainConfig(port);
        MemberAttributes.publish(config, weight, features, "default", nodeId);
        return start(config);
    }

    /**
     * Starts a member on {@code port} that runs the extension's cluster part without Quarkus
     * ({@link ClusterRings}), gated like the application's member, and opens it (it serves).
     */
    ClusterRings startRunning(int port, MigrationSettings configured) {
        Config config = plainConfig(port);
        MemberAttributes.publish(config, 1, Set.of(), "default", null);
        MemberAttributes.gate(config);
        HazelcastInstance hz = start(config);
        ClusterRings rings = ClusterRings.startOn(hz, new RingSettings(HashStyle.PINGORA, 16), configured, MigrationSource.CLUSTER,
                Duration.ofMillis(50));
        synchronized (running) {
            running.put(hz, rings);
        }
        rings.open();
        return rings;
    }

    /** Stops a member started by {@link #startRunning}: drains it, then shuts it down gracefully. */
    RingsLeft drainAndStop(ClusterRings rings, Duration timeout, Duration quietPeriod) throws InterruptedException {
        RingsLeft left = rings.drain(timeout, quietPeriod);
        HazelcastInstance hz;
        synchronized (running) {
            hz = running.entrySet().stream().filter(e -> e.getValue() == rings).map(java.util.Map.Entry::getKey).findFirst()
                    .orElseThrow();
            running.remove(hz);
        }
        rings.close();
        stop(hz);
        return left;
    }

    /** Starts a plain member on {@code port} with raw attribute values, malformed ones included. */
    HazelcastInstance startWithRawAttributes(int port, String... keyValues) {
        Config config = plainConfig(port);
        for (int i = 0; i < keyValues.length; i += 2) {
            config.getMemberAttributeConfig().setAttribute(keyValues[i], keyValues[i + 1]);
        }
        return start(config);
    }

    private HazelcastInstance start(Config config) {
        return started.start(config);
    }

    Config plainConfig(int port) {
        return LoopbackHazelcast.fixedPort(name, port, portList());
    }

    /** Shuts a plain member down gracefully (the others see it leave at once). */
    void stop(HazelcastInstance hz) {
        started.stop(hz);
    }

    @Override
    public void close() {
        synchronized (running) {
            running.values().forEach(ClusterRings::close);
            running.clear();
        }
        started.close();
    }

    /** Polls until {@code condition} holds for the selector's snapshot; fails after {@link #DEADLINE}. */
    static RingSnapshot awaitSnapshot(RingSelector selector, Predicate<RingSnapshot> condition, String what) {
        return await(selector::snapshot, condition, DEADLINE, what);
    }

    static <T> T await(Supplier<T> value, Predicate<T> condition, Duration deadline, String what) {
        return Await.until(value, condition, deadline, what);
    }

    /** Whether the snapshot's ring members are exactly {@code members} (by UUID). */
    static boolean hasExactly(RingSnapshot s, Collection<Member> members) {
        Set<Object> want = members.stream().map(Member::getUuid).collect(Collectors.toSet());
        Set<Object> have = s.members().stream().map(m -> m.member().getUuid()).collect(Collectors.toSet());
        return want.equals(have);
    }
}
