package io.ketama.router.forwarding;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.router.forwarding.binary.BinaryForwardClient;
import io.ketama.router.forwarding.binary.BinaryForwardServer;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.forwarding.guard.MemberGuard;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.BoundedOrigin;
import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.HttpOrigin;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.Members;
import io.ketama.testing.LoopbackHazelcast;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A member that publishes no usable binary port (its attribute is not a port number), or a channel
 * version older than 5 (a member of the previous release during a rolling upgrade, whose port is
 * usable), cannot be forwarded to, and no retry can change that: the guard fails over to the next
 * candidate at once, without a retry, and its breaker does not count it as the member failing. Real
 * members on 127.0.0.1 (Hazelcast on ports chosen at run time), the real binary channel to the member
 * that serves.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NoUsableEndpointTest {

    private final LoopbackPeers peers = new LoopbackPeers(LoopbackHazelcast.clusterName("no-usable-endpoint"));
    private HazelcastInstance caller;
    private HazelcastInstance owner;
    private HazelcastInstance unusable;
    private HazelcastInstance older;
    private BinaryForwardServer ownerServer;
    private BinaryForwardClient client;

    @BeforeAll
    void start() throws Exception {
        Vertx callerVertx = peers.eventLoops(1);
        Vertx ownerVertx = peers.eventLoops(1);
        ForwardReceiver ownerReceiver = new ForwardReceiver();
        ownerServer = BinaryForwardServer.start(ownerVertx, "127.0.0.1", 0, ownerReceiver);
        caller = peers.start(Map.of());
        owner = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(ownerServer.port()),
                PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION));
        unusable = peers.start(Map.of(PeerEndpoints.BINARY_PORT, "not-a-port",
                PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION));
        // the previous release: a port that works (the owner's), a version that does not
        older = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(ownerServer.port()),
                PeerEndpoints.CHANNEL_VERSION, "4"));
        peers.awaitMembers(4, Duration.ofSeconds(60));
        ownerReceiver.attach(new KeyServer(new LocalCache(1 << 20), new BoundedOrigin(new DemoOrigin(Duration.ZERO), 16),
                Members.address(owner.getCluster().getLocalMember())));
        client = new BinaryForwardClient(callerVertx, Duration.ofSeconds(5), Duration.ofSeconds(30), ForwardSecret.NONE, HttpOrigin.DEFAULT_MAX_BODY_BYTES,
                new BodyBudget(BodyBudget.defaultBytes(HttpOrigin.DEFAULT_MAX_BODY_BYTES)));
    }

    @AfterAll
    void stop() {
        if (client != null) {
            client.close();
        }
        if (ownerServer != null) {
            ownerServer.close();
        }
        peers.close();
    }

    private Member seenByCaller(HazelcastInstance member) {
        java.util.UUID id = member.getCluster().getLocalMember().getUuid();
        return caller.getCluster().getMembers().stream().filter(m -> m.getUuid().equals(id)).findFirst().orElseThrow();
    }

    @Test
    void aMemberWithoutAUsablePortIsFailedOverWithoutARetryAndItsBreakerStaysClosed() throws Exception {
        // as the caller's rings hold them: the caller's view of the others (in one JVM, each
        // member's view of itself says it is local, and the chain serves a local candidate itself)
        Member unusableMember = seenByCaller(unusable);
        Member ownerMember = seenByCaller(owner);
        // one retry allowed; a breaker that opens after two failures of two and stays open
        ForwardSettings settings = new ForwardSettings(Duration.ofSeconds(5), 1, Duration.ofMillis(10), 2, 1.0,
                Duration.ofSeconds(60), 3, 8, 2);
        Forwarder forwarder = new Forwarder(client, settings, ForwardTargets.uuids(caller.getCluster().getMembers()));
        KeyServer local = new KeyServer(new LocalCache(1 << 20), new BoundedOrigin(new DemoOrigin(Duration.ZERO), 16),
                Members.address(caller.getCluster().getLocalMember()));
        FailoverChain chain = new FailoverChain(local, forwarder, 3);

        for (int i = 0; i < 6; i++) {
            String key = "no-port-" + i;
            FailoverChain.Outcome outcome = chain.serve(key, List.of(unusableMember, ownerMember))
                    .toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertThat(outcome.served().servedBy()).as("the next candidate serves").isEqualTo(Members.address(ownerMember));
            assertThat(outcome.served().answer().body()).isEqualTo(DemoOrigin.contentFor(key));
            assertThat(outcome.failures()).hasSize(1);
            assertThat(outcome.failures().get(0).reason()).as("why the unusable member failed, each time")
                    .contains("not-a-port").contains(PeerEndpoints.BINARY_PORT);
        }
        MemberGuard guard = forwarder.guardFor(unusableMember);
        assertThat(guard.retries()).as("a retry cannot give the member a port").isZero();
        assertThat(guard.breakerOpen()).as("the member is not failing: it cannot be reached by this transport").isFalse();
        assertThat(guard.breakerOpened()).isZero();
        assertThat(guard.failed()).isEqualTo(6);
        assertThat(forwarder.guardFor(ownerMember).answered()).isEqualTo(6);
    }

    @Test
    void aMemberOfAnOlderChannelVersionIsFailedOverWithoutARetryAndItsBreakerStaysClosed() throws Exception {
        Member olderMember = seenByCaller(older);
        Member ownerMember = seenByCaller(owner);
        ForwardSettings settings = new ForwardSettings(Duration.ofSeconds(5), 1, Duration.ofMillis(10), 2, 1.0,
                Duration.ofSeconds(60), 3, 8, 2);
        Forwarder forwarder = new Forwarder(client, settings, ForwardTargets.uuids(caller.getCluster().getMembers()));
        KeyServer local = new KeyServer(new LocalCache(1 << 20), new BoundedOrigin(new DemoOrigin(Duration.ZERO), 16),
                Members.address(caller.getCluster().getLocalMember()));
        FailoverChain chain = new FailoverChain(local, forwarder, 3);
        int connections = client.connections();

        for (int i = 0; i < 6; i++) {
            String key = "older-" + i;
            FailoverChain.Outcome outcome = chain.serve(key, List.of(olderMember, ownerMember))
                    .toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertThat(outcome.served().servedBy()).as("the next candidate serves").isEqualTo(Members.address(ownerMember));
            assertThat(outcome.served().answer().body()).isEqualTo(DemoOrigin.contentFor(key));
            assertThat(outcome.failures()).hasSize(1);
            assertThat(outcome.failures().get(0).reason()).as("why the older member failed, each time")
                    .contains("speaks channel version 4");
        }
        MemberGuard guard = forwarder.guardFor(olderMember);
        assertThat(guard.retries()).as("a retry cannot make the member newer").isZero();
        assertThat(guard.breakerOpen()).as("the member is not failing: it is of the previous release").isFalse();
        assertThat(guard.breakerOpened()).isZero();
        assertThat(guard.failed()).isEqualTo(6);
        assertThat(forwarder.guardFor(ownerMember).answered()).isEqualTo(6);
        assertThat(client.connections()).as("the owner's connection only: none made for the older member")
                .isLessThanOrEqualTo(Math.max(connections, 1));
    }
}
