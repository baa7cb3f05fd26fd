package io.ketama.router.forwarding.hazelcast;

import io.ketama.router.serving.KeyedOrigin;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.forwarding.FailureKind;
import io.ketama.router.forwarding.ForwardFailedException;
import io.ketama.router.forwarding.NoUsableEndpointException;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.Origin;
import io.ketama.router.serving.OriginRequest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
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
 * The Hazelcast transport between real members on 127.0.0.1 that publish channel version 5: the key is
 * served by the target's receiver, with the client's fields (byte for byte) and the answer's fields
 * and age carried across; an invalidation drops the key's stored answers there; payloads travel as
 * IdentifiedDataSerializable (the served types are not
 * {@link java.io.Serializable}, so Java serialization could not carry them), failures come
 * back as the exceptions failover acts on, a member that publishes an older channel version is sent
 * nothing ({@link NoUsableEndpointException}), and a reply past this member's
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

    /** A member of channel version 4 with a receiver of its own: never sent a task. */
    private HazelcastInstance older;
    private final AtomicInteger olderFetches = new AtomicInteger();
    /** What the owner's origin was asked for keys {@code fields-*}. */
    private final List<OriginRequest> fieldsAsked = new CopyOnWriteArrayList<>();

    /** Every char a field value may carry: tab, visible ASCII and obs-text. */
    private static final String OBS_TEXT;

    static {
        StringBuilder b = new StringBuilder("\t");
        for (char c = 0x20; c <= 0xFF; c++) {
            if (c != 0x7F) {
                b.append(c);
            }
        }
        OBS_TEXT = b.toString();
    }

    @BeforeAll
    void start() throws Exception {
        caller = peers.start(config -> withForwardExecutor(config, PeerEndpoints.THIS_CHANNEL_VERSION));
        owner = peers.start(config -> withForwardExecutor(config, PeerEndpoints.THIS_CHANNEL_VERSION));
        older = peers.start(config -> withForwardExecutor(config, "4"));
        peers.awaitMembers(3, Duration.ofSeconds(30));
        String address = Members.address(owner.getCluster().getLocalMember());
        Origin keyed = KeyedOrigin.of(key -> {
            if (key.startsWith("down")) {
                return CompletableFuture.failedFuture(new OriginUnavailableException("origin refused " + key, null));
            }
            if (key.startsWith("sized-")) { // "sized-<n>": n bytes, as an owner whose own limit is larger takes them
                return CompletableFuture.completedFuture(new OriginAnswer(200, "application/octet-stream",
                        new byte[Integer.parseInt(key.substring("sized-".length()))]));
            }
            return new DemoOrigin(Duration.ZERO).fetch(key);
        });
        ownerServer = new KeyServer(new LocalCache(1 << 20), new BoundedOrigin(request -> {
            if (!request.target().startsWith("/fields-")) {
                return keyed.fetch(request);
            }
            fieldsAsked.add(request);
            // 100 s old when it arrived, as an origin's Age would make it
            return CompletableFuture.completedFuture(new OriginAnswer(203, HttpFields.of("Content-Type", "text/x-fields",
                    "Cache-Control", "max-age=3600", "X-Obs", OBS_TEXT, "Set-Cookie", "a=1", "Set-Cookie", "b=2"),
                    new byte[] {1, 2, 3}, System.currentTimeMillis(), 100_000));
        }, 16), address);
        ownerReceiver = new ForwardReceiver();
        ownerReceiver.attach(ownerServer);
        owner.getUserContext().put(ForwardReceiver.USER_CONTEXT_KEY, ownerReceiver);
        ForwardReceiver olderReceiver = new ForwardReceiver();
        olderReceiver.attach(new KeyServer(new LocalCache(1 << 20), request -> {
            olderFetches.incrementAndGet();
            return new DemoOrigin(Duration.ZERO).fetch(request);
        }, "older"));
        older.getUserContext().put(ForwardReceiver.USER_CONTEXT_KEY, olderReceiver);
        vertx = Vertx.vertx();
        client = new HazelcastForwardClient(caller, vertx);
        limited = new HazelcastForwardClient(caller, vertx, LIMIT);
    }

    /** The executor the forwards run on, on every member, and the channel version the member publishes. */
    private static void withForwardExecutor(Config c, String channelVersion) {
        HazelcastForwarding.configure(c, 4, 64);
        c.getMemberAttributeConfig().setAttribute(PeerEndpoints.CHANNEL_VERSION, channelVersion);
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
    void theClientsFieldsReachTheOwnersOriginByteForByteAndTheAnswersFieldsAndAgeComeBack() throws Exception {
        HttpFields clientFields = HttpFields.of("Accept", "text/html", "accept", "*/*;q=0.1", "X-Obs", OBS_TEXT,
                "Cookie", "c=\u00e9\u00ff", "X-Empty", "");
        KeyRequest request = new KeyRequest("fields-1", "/fields-1", new CacheRequest("GET", clientFields));
        long before = System.currentTimeMillis();
        Served served = client.forward(owner.getCluster().getLocalMember(), request, false, null).toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        assertThat(fieldsAsked).hasSize(1);
        assertThat(lines(fieldsAsked.get(0).headers())).as("the fields the owner's origin was asked with")
                .containsExactlyElementsOf(lines(clientFields));
        assertThat(served.answer().status()).isEqualTo(203);
        assertThat(lines(served.answer().headers())).containsExactly("Content-Type: text/x-fields", "Cache-Control: max-age=3600",
                "X-Obs: " + OBS_TEXT, "Set-Cookie: a=1", "Set-Cookie: b=2");
        assertThat(served.answer().body()).containsExactly(1, 2, 3);
        assertThat(served.answer().initialAgeMillis()).as("its age when the owner sent it").isBetween(100_000L, 160_000L);
        assertThat(served.answer().responseTime()).as("aged from its arrival here").isGreaterThanOrEqualTo(before);
    }

    private static List<String> lines(HttpFields fields) {
        List<String> lines = new java.util.ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            lines.add(fields.name(i) + ": " + fields.value(i));
        }
        return lines;
    }

    @Test
    void anInvalidationDropsTheKeysStoredAnswersOnTheOwner() throws Exception {
        Member target = owner.getCluster().getLocalMember();
        assertThat(forward(owner, "inv-1").cache()).isEqualTo(CacheStatus.MISS);
        assertThat(forward(owner, "inv-1").cache()).isEqualTo(CacheStatus.HIT);
        client.invalidate(target, "inv-1").toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(ownerServer.cache().peek("inv-1")).isNull();
        assertThat(forward(owner, "inv-1").cache()).as("fetched again").isEqualTo(CacheStatus.MISS);
        assertThat(client.invalidate(caller.getCluster().getLocalMember(), "inv-1").toCompletableFuture())
                .as("a member without a receiver").failsWithin(30, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(NotServingException.class);
    }

    @Test
    void aMemberOfAnOlderChannelVersionIsSentNothingAndTheNextCandidateServes() {
        Member v4 = older.getCluster().getLocalMember();
        for (CompletableFuture<?> sent : List.of(client.forward(v4, "old-1").toCompletableFuture(),
                client.invalidate(v4, "old-1").toCompletableFuture())) {
            assertThat(sent).failsWithin(30, TimeUnit.SECONDS).withThrowableOfType(ExecutionException.class)
                    .withCauseExactlyInstanceOf(NoUsableEndpointException.class)
                    .withMessageContaining("speaks channel version 4");
        }
        assertThat(FailureKind.of(new NoUsableEndpointException("x")).saysNothingOfTheMember()).isTrue();
        assertThat(olderFetches).as("nothing ran on it").hasValue(0);
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
