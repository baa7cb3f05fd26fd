package io.ketama.router.forwarding;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.router.serving.BoundedOrigin;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.OriginUnavailableException;
import io.ketama.router.serving.Served;
import io.ketama.testing.LoopbackHazelcast;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The Hazelcast transport between two real members on 127.0.0.1: the key is served by the
 * target's receiver, payloads travel as IdentifiedDataSerializable (the served types are not
 * {@link java.io.Serializable}, so Java serialization could not carry them), and failures come
 * back as the exceptions failover acts on.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HazelcastForwardClientTest {

    private final List<HazelcastInstance> members = new ArrayList<>();
    private Vertx vertx;
    private HazelcastInstance caller;
    private HazelcastInstance owner;
    private ForwardReceiver ownerReceiver;
    private KeyServer ownerServer;
    private HazelcastForwardClient client;

    @BeforeAll
    void start() throws Exception {
        String cluster = "ketama-test-" + UUID.randomUUID();
        caller = member(cluster, List.of());
        owner = member(cluster, List.of(caller.getCluster().getLocalMember().getAddress().getPort()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (caller.getCluster().getMembers().size() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(caller.getCluster().getMembers()).hasSize(2);
        String address = Members.address(owner.getCluster().getLocalMember());
        ownerServer = new KeyServer(new LocalCache(1 << 20), new BoundedOrigin(key -> key.startsWith("down")
                ? CompletableFuture.failedFuture(new OriginUnavailableException("origin refused " + key, null))
                : new DemoOrigin(Duration.ZERO).fetch(key), 16), address);
        ownerReceiver = new ForwardReceiver();
        ownerReceiver.attach(ownerServer);
        owner.getUserContext().put(ForwardReceiver.USER_CONTEXT_KEY, ownerReceiver);
        vertx = Vertx.vertx();
        client = new HazelcastForwardClient(caller, vertx);
    }

    /** A member on a free port that joins the members at {@code join}. */
    private HazelcastInstance member(String cluster, List<Integer> join) {
        Config c = LoopbackHazelcast.anyFreePort(cluster, join);
        c.setProperty("hazelcast.logging.type", "jdk");
        HazelcastForwarding.configure(c, 4, 64);
        HazelcastInstance hz = Hazelcast.newHazelcastInstance(c);
        members.add(hz);
        return hz;
    }

    @AfterAll
    void stop() {
        members.forEach(HazelcastInstance::shutdown);
        vertx.close();
    }

    private Served forward(HazelcastInstance target, String key) throws Exception {
        return client.forward(target.getCluster().getLocalMember(), key).toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void theTargetServesFromItsOwnCache() throws Exception {
        Served first = forward(owner, "hz-1");
        assertThat(first.cache()).isEqualTo(CacheStatus.MISS);
        assertThat(first.servedBy()).isEqualTo(Members.address(owner.getCluster().getLocalMember()));
        assertThat(first.answer().body()).isEqualTo(DemoOrigin.contentFor("hz-1"));
        assertThat(ownerServer.cache().peek("hz-1")).isNotNull();
        assertThat(forward(owner, "hz-1").cache()).isEqualTo(CacheStatus.HIT);
    }

    @Test
    void aMemberWithoutAReceiverSaysSo() {
        Member self = caller.getCluster().getLocalMember();
        assertThat(client.forward(self, "k").toCompletableFuture()).failsWithin(30, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(NotServingException.class)
                .withMessageContaining("no receiver");
    }

    @Test
    void anOriginFailureOnTheTargetComesBackAsOriginUnavailable() {
        assertThat(client.forward(owner.getCluster().getLocalMember(), "down-1").toCompletableFuture())
                .failsWithin(30, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(OriginUnavailableException.class)
                .withMessageContaining("origin refused down-1");
    }
}
