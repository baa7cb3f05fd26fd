package io.ketama.router.forwarding.binary;

import io.ketama.router.serving.KeyedOrigin;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.forwarding.FailureKind;
import io.ketama.router.forwarding.ForwardFailedException;
import io.ketama.router.forwarding.NoUsableEndpointException;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.NotCachedException;
import io.ketama.router.serving.Origin;
import io.ketama.router.serving.OriginRequest;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.LoopbackPeers;
import io.ketama.router.forwarding.NotServingException;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.BoundedOrigin;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.HttpOrigin;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.Members;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.OriginAnswerTooLargeException;
import io.ketama.router.serving.OriginUnavailableException;
import io.ketama.router.serving.OverloadedException;
import io.ketama.router.serving.Served;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The binary channel between real members on 127.0.0.1 that publish channel version 5: keys served by
 * the target's receiver with the client's fields (byte for byte) and the answer's fields and age carried
 * across, many forwards at once on one connection answered out of order, invalidations that drop a key's
 * stored answers there, failures carried back as the exceptions failover acts on (an {@code only-if-cached}
 * request the owner holds nothing for among them), a member of an older channel version sent nothing, and
 * a channel that closes under forwards failing them at once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BinaryForwardClientTest {

    private final LoopbackPeers peers = new LoopbackPeers();
    private final CompletableFuture<Void> slowRelease = new CompletableFuture<>();
    private final CompletableFuture<Void> holdRelease = new CompletableFuture<>();
    private Vertx callerVertx;
    private HazelcastInstance owner;
    private HazelcastInstance noChannel;
    private HazelcastInstance older;
    /** What the owner's origin was asked for keys {@code fields-*}. */
    private final List<OriginRequest> fieldsAsked = new java.util.concurrent.CopyOnWriteArrayList<>();
    private BinaryForwardServer ownerServer;
    private ForwardReceiver ownerReceiver;
    private KeyServer ownerKeys;
    private BinaryForwardClient client;

    @BeforeAll
    void start() throws Exception {
        callerVertx = peers.eventLoops(2);
        Vertx ownerVertx = peers.eventLoops(2);
        ownerReceiver = new ForwardReceiver();
        ownerServer = BinaryForwardServer.start(ownerVertx, "127.0.0.1", 0, ownerReceiver);
        peers.start(Map.of());
        owner = peers.start(binaryPort(ownerServer.port()));
        // of this release, without a binary channel
        noChannel = peers.start(Map.of(PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION));
        // of the previous release, its binary channel the owner's
        older = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(ownerServer.port()), PeerEndpoints.CHANNEL_VERSION, "4"));
        peers.awaitMembers(4, Duration.ofSeconds(30));
        DemoOrigin demo = new DemoOrigin(Duration.ZERO);
        Origin keyed = KeyedOrigin.of(key -> {
            if (key.startsWith("down")) {
                return CompletableFuture.failedFuture(new OriginUnavailableException("origin refused " + key, null));
            }
            if (key.startsWith("too-large")) {
                return CompletableFuture.failedFuture(new OriginAnswerTooLargeException("origin answered " + key
                        + " with a body of more than 65536 bytes"));
            }
            if (key.startsWith("hold")) {
                return holdRelease.thenCompose(v -> demo.fetch(key));
            }
            if (key.startsWith("slow")) {
                return slowRelease.thenCompose(v -> demo.fetch(key));
            }
            if (key.startsWith("404")) {
                return CompletableFuture.completedFuture(new OriginAnswer(404, "text/x-none", new byte[] {1, 2}));
            }
            return demo.fetch(key);
        });
        ownerKeys = new KeyServer(new LocalCache(1 << 20), new BoundedOrigin(request -> {
            if (!request.target().startsWith("/fields-")) {
                return keyed.fetch(request);
            }
            fieldsAsked.add(request);
            // 100 s old when it arrived, as an origin's Age would make it
            return CompletableFuture.completedFuture(new OriginAnswer(203, HttpFields.of("Content-Type", "text/x-fields",
                    "Cache-Control", "max-age=3600", "X-Obs", BinaryFetchFramesTest.OBS_TEXT, "Set-Cookie", "a=1", "Set-Cookie", "b=2"),
                    new byte[] {1, 2, 3}, System.currentTimeMillis(), 100_000));
        }, 64), Members.address(owner.getCluster().getLocalMember()));
        ownerReceiver.attach(ownerKeys);
        client = new BinaryForwardClient(callerVertx, Duration.ofSeconds(5), Duration.ofSeconds(30), ForwardSecret.NONE, HttpOrigin.DEFAULT_MAX_BODY_BYTES,
                new BodyBudget(BodyBudget.defaultBytes(HttpOrigin.DEFAULT_MAX_BODY_BYTES)));
    }

    /** The attributes of a member of this release whose binary channel listens on {@code port}. */
    private static Map<String, String> binaryPort(int port) {
        return Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(port), PeerEndpoints.CHANNEL_VERSION,
                PeerEndpoints.THIS_CHANNEL_VERSION);
    }

    @AfterAll
    void stop() {
        slowRelease.complete(null);
        holdRelease.complete(null);
        client.close();
        ownerServer.close();
        peers.close();
    }

    private Member ownerMember() {
        return owner.getCluster().getLocalMember();
    }

    private CompletableFuture<Served> forward(Member target, String key) {
        return client.forward(target, key).toCompletableFuture();
    }

    @Test
    void theTargetServesFromItsOwnCacheAndStatusAndTypePassThrough() throws Exception {
        Served first = forward(ownerMember(), "bin-1").get(30, TimeUnit.SECONDS);
        assertThat(first.cache()).isEqualTo(CacheStatus.MISS);
        assertThat(first.servedBy()).isEqualTo(Members.address(ownerMember()));
        assertThat(first.answer().body()).isEqualTo(DemoOrigin.contentFor("bin-1"));
        assertThat(first.answer().contentType()).isEqualTo("text/plain; charset=ISO-8859-1");
        assertThat(ownerKeys.cache().peek("bin-1")).isNotNull();
        assertThat(forward(ownerMember(), "bin-1").get(30, TimeUnit.SECONDS).cache()).isEqualTo(CacheStatus.HIT);

        Served notFound = forward(ownerMember(), "404-x").get(30, TimeUnit.SECONDS);
        assertThat(notFound.answer().status()).isEqualTo(404);
        assertThat(notFound.answer().contentType()).isEqualTo("text/x-none");
        assertThat(notFound.answer().body()).containsExactly(1, 2);
        assertThat(notFound.answer().headers().first("Cache-Control")).as("the origin's fields travel with it")
                .isEqualTo("max-age=3600");
    }

    @Test
    void theClientsFieldsReachTheOwnersOriginByteForByteAndTheAnswersFieldsAndAgeComeBack() throws Exception {
        HttpFields clientFields = HttpFields.of("Accept", "text/html", "accept", "*/*;q=0.1", "X-Obs", BinaryFetchFramesTest.OBS_TEXT,
                "Cookie", "c=\u00e9\u00ff", "X-Empty", "");
        KeyRequest request = new KeyRequest("fields-1", "/fields-1", new CacheRequest("GET", clientFields));
        long before = System.currentTimeMillis();
        Served served = client.forward(ownerMember(), request, false, null).toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(fieldsAsked).hasSize(1);
        BinaryFetchFramesTest.assertSameFields(fieldsAsked.get(0).headers(), clientFields);
        assertThat(served.answer().status()).isEqualTo(203);
        BinaryFetchFramesTest.assertSameFields(served.answer().headers(), HttpFields.of("Content-Type", "text/x-fields",
                "Cache-Control", "max-age=3600", "X-Obs", BinaryFetchFramesTest.OBS_TEXT, "Set-Cookie", "a=1", "Set-Cookie", "b=2"));
        assertThat(served.answer().body()).containsExactly(1, 2, 3);
        assertThat(served.answer().initialAgeMillis()).as("its age when the owner sent it").isBetween(100_000L, 160_000L);
        assertThat(served.answer().responseTime()).as("aged from its arrival here").isGreaterThanOrEqualTo(before);
    }

    @Test
    void anInvalidationDropsTheKeysStoredAnswersOnTheOwnerAndAMemberServingNoKeysSaysSo() throws Exception {
        assertThat(forward(ownerMember(), "inv-1").get(30, TimeUnit.SECONDS).cache()).isEqualTo(CacheStatus.MISS);
        assertThat(forward(ownerMember(), "inv-1").get(30, TimeUnit.SECONDS).cache()).isEqualTo(CacheStatus.HIT);
        client.invalidate(ownerMember(), "inv-1").toCompletableFuture().get(30, TimeUnit.SECONDS);
        assertThat(ownerKeys.cache().peek("inv-1")).isNull();
        assertThat(forward(ownerMember(), "inv-1").get(30, TimeUnit.SECONDS).cache()).as("fetched again").isEqualTo(CacheStatus.MISS);
        ownerReceiver.detach();
        try {
            assertThat(client.invalidate(ownerMember(), "inv-1").toCompletableFuture()).failsWithin(30, TimeUnit.SECONDS)
                    .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(NotServingException.class);
        } finally {
            ownerReceiver.attach(ownerKeys);
        }
        assertThat(ownerKeys.cache().peek("inv-1")).as("not dropped by a member serving no keys").isNotNull();
    }

    @Test
    void anOnlyIfCachedRequestTheOwnerHoldsNothingForComesBackNotCached() throws Exception {
        KeyRequest onlyIfCached = new KeyRequest("oic-1", "/oic-1", CacheRequest.get(HttpFields.of("Cache-Control", "only-if-cached")));
        assertThat(client.forward(ownerMember(), onlyIfCached, false, null).toCompletableFuture()).failsWithin(30, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(NotCachedException.class);
        assertThat(FailureKind.of(new NotCachedException("x")).endsTheChain()).isTrue();
        forward(ownerMember(), "oic-1").get(30, TimeUnit.SECONDS);
        assertThat(client.forward(ownerMember(), onlyIfCached, false, null).toCompletableFuture().get(30, TimeUnit.SECONDS).cache())
                .isEqualTo(CacheStatus.HIT);
    }

    @Test
    void keysOfAnyByteAndLengthArriveUnchanged() throws Exception {
        StringBuilder odd = new StringBuilder("raw-");
        for (int b = 0; b < 256; b++) {
            odd.append((char) b);
        }
        String key = odd + "k".repeat(8_000);
        assertThat(forward(ownerMember(), key).get(30, TimeUnit.SECONDS).answer().body()).isEqualTo(DemoOrigin.contentFor(key));
    }

    @Test
    void aHitIsAnsweredWhileAMissOnTheSameChannelStillWaits() throws Exception {
        forward(ownerMember(), "bin-hit").get(30, TimeUnit.SECONDS);
        CompletableFuture<Served> slow = forward(ownerMember(), "slow-1");
        Served hit = forward(ownerMember(), "bin-hit").get(30, TimeUnit.SECONDS);
        assertThat(hit.cache()).isEqualTo(CacheStatus.HIT);
        assertThat(slow).isNotDone();
        slowRelease.complete(null);
        assertThat(slow.get(30, TimeUnit.SECONDS).answer().body()).isEqualTo(DemoOrigin.contentFor("slow-1"));
    }

    @Test
    void failuresOnTheTargetComeBackAsTheExceptionsFailoverActsOn() {
        assertThat(forward(ownerMember(), "down-1")).failsWithin(30, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(OriginUnavailableException.class)
                .withMessageContaining("origin refused down-1");
        ownerReceiver.detach();
        try {
            assertThat(forward(ownerMember(), "bin-2")).failsWithin(30, TimeUnit.SECONDS)
                    .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(NotServingException.class);
        } finally {
            ownerReceiver.attach(ownerKeys);
        }
        KeyServer busy = new KeyServer(new LocalCache(1 << 20), new BoundedOrigin(key -> new CompletableFuture<>(), 1), "busy");
        ownerReceiver.attach(busy);
        try {
            forward(ownerMember(), "busy-1"); // takes the one slot and never answers
            assertThat(forward(ownerMember(), "busy-2")).failsWithin(30, TimeUnit.SECONDS)
                    .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(OverloadedException.class);
        } finally {
            ownerReceiver.attach(ownerKeys);
        }
    }

    /**
     * An origin answer too large for the target comes back as such (not a failure of the member),
     * on a channel that stays open: a forward under way on the same connection is answered after it.
     */
    @Test
    void anAnswerTooLargeComesBackAsSuchAndTheChannelItCameOnStaysOpen() throws Exception {
        io.vertx.core.Context loop = callerVertx.getOrCreateContext();
        CompletableFuture<CompletableFuture<Served>> held = new CompletableFuture<>();
        CompletableFuture<CompletableFuture<Served>> refused = new CompletableFuture<>();
        loop.runOnContext(v -> { // one event loop, so one connection carries both
            held.complete(client.forward(ownerMember(), "hold-1").toCompletableFuture());
            refused.complete(client.forward(ownerMember(), "too-large-1").toCompletableFuture());
        });
        assertThat(refused.get(30, TimeUnit.SECONDS)).failsWithin(30, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(OriginAnswerTooLargeException.class)
                .withMessageContaining("too-large-1 with a body of more than 65536 bytes");
        CompletableFuture<Served> underWay = held.get(30, TimeUnit.SECONDS);
        assertThat(underWay).as("the forward under way on that connection is not failed by it").isNotDone();
        holdRelease.complete(null);
        assertThat(underWay.get(30, TimeUnit.SECONDS).answer().body()).isEqualTo(DemoOrigin.contentFor("hold-1"));
    }

    @Test
    void aMemberThatPublishesNoChannelCannotBeForwardedTo() {
        assertThat(forward(noChannel.getCluster().getLocalMember(), "k")).failsWithin(30, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class).withCauseExactlyInstanceOf(NoUsableEndpointException.class)
                .withMessageContaining("no " + PeerEndpoints.BINARY_PORT);
    }

    @Test
    void aMemberOfAnOlderChannelVersionIsSentNothingThoughItPublishesAChannel() throws Exception {
        Member v4 = older.getCluster().getLocalMember();
        int connections = client.connections();
        for (CompletableFuture<?> sent : List.of(forward(v4, "old-1"), client.invalidate(v4, "old-1").toCompletableFuture())) {
            assertThat(sent).failsWithin(30, TimeUnit.SECONDS).withThrowableOfType(ExecutionException.class)
                    .withCauseExactlyInstanceOf(NoUsableEndpointException.class)
                    .withMessageContaining("speaks channel version 4");
        }
        assertThat(client.connections()).as("no connection made for it").isLessThanOrEqualTo(connections);
        assertThat(ownerKeys.cache().peek("old-1")).as("its channel (the owner's) served nothing").isNull();
    }

    @Test
    void aChannelThatClosesFailsItsForwardsAtOnceAndTheNextForwardConnectsAgain() throws Exception {
        Vertx otherVertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        ForwardReceiver held = new ForwardReceiver();
        held.attach(new KeyServer(new LocalCache(1 << 20), key -> new CompletableFuture<>(), "held"));
        BinaryForwardServer dying = BinaryForwardServer.start(otherVertx, "127.0.0.1", 0, held);
        int port = dying.port();
        HazelcastInstance target = peers.start(binaryPort(port));
        try {
            List<CompletableFuture<Served>> underWay = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                underWay.add(forward(target.getCluster().getLocalMember(), "held-" + i));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (held.inFlight() < 20 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertThat(held.inFlight()).isEqualTo(20);
            dying.close();
            otherVertx.close();
            // failed by the closed connection, long before the 30 s expiry of this client
            for (CompletableFuture<Served> f : underWay) {
                assertThat(f).failsWithin(10, TimeUnit.SECONDS)
                        .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(ForwardFailedException.class)
                        .withMessageContaining("forwards under way");
            }
            // each event loop of the client had its own connection; once every one has seen its close,
            // the next forward connects again and is refused at once
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            String last = "";
            while (!last.contains("cannot connect") && System.nanoTime() < until) {
                CompletableFuture<Served> after = forward(target.getCluster().getLocalMember(), "after");
                assertThat(after).failsWithin(10, TimeUnit.SECONDS)
                        .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(ForwardFailedException.class);
                last = after.handle((s, e) -> String.valueOf(e)).join();
            }
            assertThat(last).contains("cannot connect");
        } finally {
            target.getLifecycleService().terminate();
        }
    }
}
