package io.ketama.router.forwarding;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.testing.LoopbackHazelcast;
import io.ketama.testing.StartedMembers;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * For the transport tests that run without the app: plain Hazelcast members of a cluster of the
 * test's own on 127.0.0.1 (ports chosen at run time), the first one started (the caller, as a rule)
 * joined by every later one, each publishing the attributes the test gives it (an owner's endpoint
 * ports), and the event loops the test's clients and servers run on. {@link #close()} shuts the
 * members down, then the event loops; close what runs on them (servers, clients) first.
 */
public final class LoopbackPeers implements AutoCloseable {

    private final String clusterName;
    private final StartedMembers members = new StartedMembers();
    private final List<Vertx> eventLoops = new ArrayList<>();
    private HazelcastInstance first;

    /** Peers of a cluster named {@code ketama-test-<random UUID>}. */
    public LoopbackPeers() {
        this("ketama-test-" + UUID.randomUUID());
    }

    /** @param clusterName a name no other test run on the machine uses ({@link LoopbackHazelcast#clusterName}, say) */
    public LoopbackPeers(String clusterName) {
        this.clusterName = clusterName;
    }

    /** Starts a member that publishes {@code attributes} ({@link io.ketama.router.forwarding.channel.PeerEndpoints#BINARY_PORT}, say). */
    public HazelcastInstance start(Map<String, String> attributes) {
        return start(config -> attributes.forEach(config.getMemberAttributeConfig()::setAttribute));
    }

    /** Starts a member with what {@code setUp} adds to its configuration (executors, attributes). */
    public HazelcastInstance start(Consumer<Config> setUp) {
        List<Integer> join = first == null ? List.of() : List.of(first.getCluster().getLocalMember().getAddress().getPort());
        Config config = LoopbackHazelcast.anyFreePort(clusterName, join);
        config.setProperty("hazelcast.logging.type", "jdk");
        setUp.accept(config);
        HazelcastInstance hz = members.start(config);
        if (first == null) {
            first = hz;
        }
        return hz;
    }

    /** Waits up to {@code within} until the first member sees {@code n} members, and fails unless it does. */
    public void awaitMembers(int n, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (first.getCluster().getMembers().size() < n && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(first.getCluster().getMembers()).hasSize(n);
    }

    /** A Vert.x of {@code threads} event loops of its own (a member's, or the caller's), closed with these peers. */
    public Vertx eventLoops(int threads) {
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(threads));
        eventLoops.add(vertx);
        return vertx;
    }

    @Override
    public void close() {
        members.close();
        eventLoops.forEach(Vertx::close);
    }
}
