package io.ketama.router.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** A forward runs on the target member with that member's key server, over two real members on 127.0.0.1. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForwardCallTest {

    private final List<HazelcastInstance> members = new ArrayList<>();
    private HazelcastInstance caller;
    private HazelcastInstance owner;
    private KeyServer ownerServer;

    @BeforeAll
    void start() throws Exception {
        String cluster = "ketama-test-" + UUID.randomUUID();
        int p1 = freePort();
        int p2 = freePort();
        while (p2 == p1) {
            p2 = freePort();
        }
        caller = member(cluster, p1, p2);
        owner = member(cluster, p2, p1);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (caller.getCluster().getMembers().size() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(caller.getCluster().getMembers()).hasSize(2);
        ownerServer = new KeyServer(new LocalCache(1 << 20), new DemoOrigin(Duration.ZERO),
                Members.address(owner.getCluster().getLocalMember()));
        ownerServer.registerIn(owner.getUserContext());
    }

    private HazelcastInstance member(String cluster, int port, int other) {
        Config c = new Config();
        c.setClusterName(cluster);
        c.setProperty("hazelcast.phone.home.enabled", "false");
        c.setProperty("hazelcast.logging.type", "jdk");
        c.getNetworkConfig().setPort(port).setPortAutoIncrement(false);
        c.getNetworkConfig().getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        c.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
        c.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
        c.getNetworkConfig().getJoin().getTcpIpConfig().setEnabled(true)
                .addMember("127.0.0.1:" + port).addMember("127.0.0.1:" + other);
        HazelcastInstance hz = Hazelcast.newHazelcastInstance(c);
        members.add(hz);
        return hz;
    }

    private static int freePort() throws Exception {
        for (int p = 5901 + (int) (Math.random() * 49); ; p = p == 5949 ? 5901 : p + 1) {
            try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getByName("127.0.0.1"))) {
                return p;
            } catch (java.io.IOException taken) {
                // next
            }
        }
    }

    @AfterAll
    void stop() {
        members.forEach(HazelcastInstance::shutdown);
    }

    private Served forward(String key) throws Exception {
        return caller.getExecutorService(Forwarder.EXECUTOR)
                .submitToMember(new ForwardCall(key), owner.getCluster().getLocalMember())
                .get(30, TimeUnit.SECONDS);
    }

    @Test
    void theTargetServesFromItsOwnCache() throws Exception {
        Served first = forward("fc-1");
        assertThat(first.cache()).isEqualTo(CacheStatus.MISS);
        assertThat(first.servedBy()).isEqualTo(Members.address(owner.getCluster().getLocalMember()));
        assertThat(first.answer().body()).isEqualTo(DemoOrigin.contentFor("fc-1"));
        assertThat(ownerServer.cache().peek("fc-1")).isNotNull();
        assertThat(forward("fc-1").cache()).isEqualTo(CacheStatus.HIT);
    }

    @Test
    void aMemberWithoutAKeyServerSaysSo() {
        assertThatThrownBy(() -> caller.getExecutorService(Forwarder.EXECUTOR)
                .submitToMember(new ForwardCall("k"), caller.getCluster().getLocalMember()).get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(NotServingException.class).hasMessageContaining(KeyServer.USER_CONTEXT_KEY);
    }
}
