package io.ketama.router.forwarding.hazelcast;

import io.ketama.router.serving.KeyedOrigin;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.router.forwarding.ForwardFailedException;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.LoopbackPeers;
import io.ketama.router.forwarding.NotServingException;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.BoundedOrigin;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.NoRoomForReplyException;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.OriginUnavailableException;
import io.ketama.router.serving.Served;
import io.vertx.core.Vertx;
import java.time.Duration;
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
 * {@link java.io.Serializable}, so Java serialization could not carry them), failures come
 * back as the exceptions failover acts on, and a reply past this member's
 * {@code ketama.router.origin.max-body-bytes} (from an owner whose own limit is larger) fails the
 * forward as the other transports do; a reply is held in this member's budget once handed over,
 * until released, and one without room there fails with {@link NoRoomForReplyException}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HazelcastForwardClientTest {

    private final LoopbackPeers peers = new LoopbackPeers();
    private Vertx vertx;
    private HazelcastInstance caller;
    private HazelcastInstance owner;
    private ForwardReceiver ownerReceiver;
    private KeyServer ownerServer;
    private HazelcastForwardClient client;
    private static final int LIMIT = 64 * 1024;
    /** Takes reply bodies of at most {@link #LIMIT} bytes. */
    private HazelcastForwardClient limited;

    @BeforeAll
    void start() throws Exception {
        caller = peers.start(HazelcastForwardClientTest::withForwardExecutor);
        owner = peers.start(HazelcastForwardClientTest::withForwardExecutor);
        peers.awaitMembers(2, Duration.ofSeconds(30));
        String address = Members.address(owner.getCluster().getLocalMember());
        ownerServer = new KeyServer(new LocalCache(1 << 20), new BoundedOrigin(KeyedOrigin.of(key -> {
            if (key.startsWith("down")) {
                return CompletableFuture.failedFuture(new OriginUnavailableException("origin refused " + key, null));
            }
            if (key.startsWith("sized-")) { // "sized-<n>": n bytes, as an owner whose own limit is larger takes them
                return CompletableFuture.completedFuture(new OriginAnswer(200, "application/octet-stream",
                        new byte[Integer.parseInt(key.substring("sized-".length()))]));
            }
            return new DemoOrigin(Duration.ZERO).fetch(key);
        }), 16), address);
        ownerReceiver = new ForwardReceiver();
        ownerReceiver.attach(ownerServer);
        owner.getUserContext().put(ForwardReceiver.USER_CONTEXT_KEY, ownerReceiver);
        vertx = Vertx.vertx();
        client = new HazelcastForwardClient(caller, vertx);
        limited = new HazelcastForwardClient(caller, vertx, LIMIT);
    }

    /** The executor the forwards run on, on every member. */
    private static void withForwardExecutor(Config c) {
        HazelcastForwarding.configure(c, 4, 64);
    }

    @AfterAll
    void stop() {
        peers.close();
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
    void aReplyPastThisMembersLimitFailsTheForwardSoTheNextCandidateServes() throws Exception {
        Member target = owner.getCluster().getLocalMember();
        assertThat(limited.forward(target, "sized-" + LIMIT).toCompletableFuture().get(30, TimeUnit.SECONDS).answer().body())
                .as("exactly the limit is taken").hasSize(LIMIT);
        assertThat(limited.forward(target, "sized-" + (LIMIT + 1)).toCompletableFuture()).failsWithin(30, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class)
                .withCauseExactlyInstanceOf(ForwardFailedException.class)
                .withMessageContaining("over hazelcast answered a forward with a body of " + (LIMIT + 1) + " bytes")
                .withMessageContaining("at most " + LIMIT + " bytes (ketama.router.origin.max-body-bytes)");
        assertThat(ownerServer.cache().peek("sized-" + (LIMIT + 1))).as("the owner took it, under its own limit").isNotNull();
    }

    @Test
    void aReplyIsHeldInTheBudgetOnceHandedOverAndOneWithoutRoomFailsTheForward() throws Exception {
        BodyBudget budget = new BodyBudget(LIMIT + LIMIT / 2);
        HazelcastForwardClient budgeted = new HazelcastForwardClient(caller, vertx, LIMIT, budget);
        Member target = owner.getCluster().getLocalMember();
        Served held = budgeted.forward(target, "sized-" + LIMIT).toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(held.heldBytes()).isEqualTo(LIMIT);
        assertThat(budget.usedBytes()).isEqualTo(LIMIT);
        assertThat(budgeted.forward(target, "sized-" + (LIMIT - 1)).toCompletableFuture()).failsWithin(30, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class)
                .withCauseExactlyInstanceOf(NoRoomForReplyException.class)
                .withMessageContaining("(ketama.router.admission.max-buffered-bytes)")
                .withMessageContaining("no room for a reply of " + (LIMIT - 1) + " bytes from member " + Members.address(target)
                        + " over hazelcast");
        assertThat(budget.usedBytes()).as("the refused reply holds nothing").isEqualTo(LIMIT);
        held.release();
        assertThat(budget.usedBytes()).isZero();
        Served fits = budgeted.forward(target, "sized-" + (LIMIT - 1)).toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(fits.answer().body()).hasSize(LIMIT - 1);
        fits.release();
        assertThat(budget.usedBytes()).isZero();
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
