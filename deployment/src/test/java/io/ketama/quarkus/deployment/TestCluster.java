package io.ketama.quarkus.deployment;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.core.HashStyle;
import io.ketama.quarkus.runtime.MemberPart;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSource;
import io.ketama.quarkus.runtime.RingSettings;
import io.ketama.quarkus.RingsLeft;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.testing.Await;
import io.ketama.testing.LoopbackHazelcast;
import io.ketama.testing.MemberPorts;
import io.ketama.testing.StartedMembers;
import io.quarkus.test.QuarkusUnitTest;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.shrinkwrap.api.spec.JavaArchive;

import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A test cluster on 127.0.0.1 ({@link LoopbackHazelcast}): the application's embedded member is
 * member 0, plain Hazelcast members are members 1 to size - 1. Each test class has a cluster name
 * of its own, which {@link LoopbackHazelcast#clusterName} makes this test run's own, and its
 * members' ports, chosen at run time ({@link MemberPorts#shared}: the same in the test class's two
 * copies, the one that configures the application and the one in the application's class loader).
 */
final class TestCluster implements AutoCloseable {

    static final Duration DEADLINE = Duration.ofSeconds(30);

    final String name;
    private final MemberPorts ports;
    private final StartedMembers started = new StartedMembers();
    private final java.util.Map<HazelcastInstance, MemberPart> running = new java.util.HashMap<>();

    /** @param size the members: the application's (0) and the plain members the test may start (1 to size - 1) */
    TestCluster(String name, int size) {
        this.name = LoopbackHazelcast.clusterName(name);
        this.ports = MemberPorts.shared(this.name, size);
    }

    /** Member {@code member}'s port (0: the application's). */
    int port(int member) {
        return ports.port(member);
    }

    /** {@code 127.0.0.1:port} of member {@code member}, as Hazelcast and the rings name it. */
    String address(int member) {
        return LoopbackHazelcast.HOST + ":" + port(member);
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
        LoopbackHazelcast.extensionKeys(name, port(0), ports.all()).forEach(test::overrideConfigKey);
        for (int i = 0; i < extra.length; i += 2) {
            test.overrideConfigKey(extra[i], extra[i + 1]);
        }
        return test;
    }

    String memberList() {
        return LoopbackHazelcast.memberList(ports.all());
    }

    /** Starts plain member {@code member} (1 to size - 1) with the given ketama attributes (nodeId may be null). */
    HazelcastInstance start(int member, int weight, Set<String> features, String nodeId) {
        return start(member, config -> MemberAttributes.publish(config, weight, features, "default", nodeId));
    }

    /**
     * Starts plain member {@code member} running the extension's cluster part without Quarkus
     * ({@link MemberPart}), gated like the application's member, and opens it (it serves).
     */
    MemberPart startRunning(int member, MigrationSettings configured) {
        return startRunning(member, configured, config -> { });
    }

    /** {@link #startRunning(int, MigrationSettings)} with more of the member's configuration set by {@code more} (attributes). */
    MemberPart startRunning(int member, MigrationSettings configured, Consumer<Config> more) {
        HazelcastInstance hz = start(member, config -> {
            MemberAttributes.publish(config, 1, Set.of(), "default", null);
            MemberAttributes.gate(config);
            more.accept(config);
        });
        MemberPart rings = MemberPart.startOn(hz, new RingSettings(HashStyle.PINGORA, 16), configured, MigrationSource.CLUSTER,
                Duration.ofMillis(50));
        synchronized (running) {
            running.put(hz, rings);
        }
        rings.open();
        return rings;
    }

    /** Stops a member started by {@link #startRunning}: drains it, then shuts it down gracefully. */
    RingsLeft drainAndStop(MemberPart rings, Duration timeout, Duration quietPeriod) throws InterruptedException {
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

    /** Crashes a member started by {@link #startRunning}: no drain, no close, Hazelcast terminated (the others see it fail). */
    void crash(MemberPart rings) {
        HazelcastInstance hz;
        synchronized (running) {
            hz = running.entrySet().stream().filter(e -> e.getValue() == rings).map(java.util.Map.Entry::getKey).findFirst()
                    .orElseThrow();
        }
        hz.getLifecycleService().terminate();
    }

    /** Starts plain member {@code member} with raw attribute values, malformed ones included. */
    HazelcastInstance startWithRawAttributes(int member, String... keyValues) {
        return start(member, config -> {
            for (int i = 0; i < keyValues.length; i += 2) {
                config.getMemberAttributeConfig().setAttribute(keyValues[i], keyValues[i + 1]);
            }
        });
    }

    /**
     * Starts plain member {@code member} with its configuration changed by {@code customize} first;
     * if another process took its port, again on a new one ({@link MemberPorts#bind}). It is shut
     * down with the others.
     */
    HazelcastInstance start(int member, Consumer<Config> customize) {
        if (member == 0) {
            throw new IllegalArgumentException("member 0 is the application's; plain members are 1 to " + (ports.size() - 1));
        }
        return started.track(newMember(member, customize));
    }

    /**
     * A new member on member {@code member}'s port (on a new port if another process took it),
     * its configuration changed by {@code customize} first; whoever calls this shuts it down.
     */
    HazelcastInstance newMember(int member, Consumer<Config> customize) {
        return ports.bind(member, port -> {
            Config config = LoopbackHazelcast.fixedPort(name, port, ports.all());
            customize.accept(config);
            return Hazelcast.newHazelcastInstance(config);
        });
    }

    /** Shuts a plain member down gracefully (the others see it leave at once). */
    void stop(HazelcastInstance hz) {
        started.stop(hz);
    }

    @Override
    public void close() {
        synchronized (running) {
            running.values().forEach(MemberPart::close);
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
