package io.ketama.router.forwarding.binary;

import io.ketama.router.serving.KeyedOrigin;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import io.ketama.router.forwarding.ForwardFailedException;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.LoopbackPeers;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.BoundedOrigin;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.Members;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.Served;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The binary transport takes a reply's body only up to this member's
 * {@code ketama.router.origin.max-body-bytes}, whatever the owner sends: a real owner
 * ({@link BinaryForwardServer} and {@link KeyServer}) whose own limit is larger, and a stand-in owner
 * of this release that sends the head of a 1 MiB reply and holds its fields and body back, both fail the forward with a
 * {@link ForwardFailedException}, which the failover chain answers with the next candidate, as the
 * {@code http} transport does. The stand-in's refusal comes while its body is still held (refused
 * from the frame's head, before the body is kept), and the same connection then carries the rest of
 * that frame, let go, and the next reply. Real members and sockets on 127.0.0.1.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BinaryForwardBodyLimitTest {

    private static final int LIMIT = 64 * 1024;
    private static final int LARGE = 1024 * 1024;
    /** Bytes of the stand-in's held reply sent before the rest is held back: its head and a little body. */
    private static final int SENT_BEFORE_HOLD = 256;

    private final LoopbackPeers peers = new LoopbackPeers();
    private BinaryForwardServer ownerServer;
    private NetServer standIn;
    private Member owner;
    private Member standInMember;
    private BinaryForwardClient client;
    private Vertx callerVertx;
    private final AtomicInteger standInConnections = new AtomicInteger();
    private final CompletableFuture<Void> holdRelease = new CompletableFuture<>();

    @BeforeAll
    void start() throws Exception {
        callerVertx = peers.eventLoops(1); // one event loop: one connection to each peer carries every forward
        Vertx ownerVertx = peers.eventLoops(2);
        ForwardReceiver receiver = new ForwardReceiver();
        ownerServer = BinaryForwardServer.start(ownerVertx, "127.0.0.1", 0, receiver);
        standIn = ownerVertx.createNetServer().connectHandler(this::standIn)
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);

        peers.start(Map.of());
        owner = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(ownerServer.port()),
                PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION)).getCluster().getLocalMember();
        standInMember = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(standIn.actualPort()),
                PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION)).getCluster().getLocalMember();
        peers.awaitMembers(3, Duration.ofSeconds(60));
        // the owner's origin: "large-*" keys answer 1 MiB (an owner configured to take that), others the
        // limit exactly, "hold-*" once released
        receiver.attach(new KeyServer(new LocalCache(16 << 20), new BoundedOrigin(KeyedOrigin.of(key -> (key.startsWith("hold-")
                ? holdRelease : CompletableFuture.completedFuture(null)).thenApply(v -> new OriginAnswer(200,
                "application/octet-stream", new byte[key.startsWith("large-") ? LARGE : LIMIT]))), 64), Members.address(owner)));
        client = new BinaryForwardClient(callerVertx, Duration.ofSeconds(5), Duration.ofSeconds(120), ForwardSecret.NONE, LIMIT,
                new BodyBudget(BodyBudget.defaultBytes(LIMIT)));
    }

    /**
     * A stand-in owner's connection: {@code held-*} gets the first {@link #SENT_BEFORE_HOLD} bytes of
     * a 1 MiB reply (a redirect with 4 KiB of fields for {@code held-fields-*}: its fields held back
     * too); any other key gets the rest of a held reply first, then a reply of exactly the limit.
     */
    private void standIn(NetSocket socket) {
        standInConnections.incrementAndGet();
        Buffer[] held = new Buffer[1];
        BinaryFrames.Reader reader = new BinaryFrames.Reader((buffer, start, length, id, kind) -> {
            if (kind != BinaryFrames.FETCH) {
                return;
            }
            String key = BinaryFrames.fetchRequest(buffer, start, length).request().key();
            if (key.startsWith("held-")) {
                String location = key.startsWith("held-fields-") ? "/elsewhere/" + key : null;
                OriginAnswer answer = new OriginAnswer(location == null ? 200 : 307, "application/octet-stream", new byte[LARGE], location);
                if (location != null) {
                    answer = answer.with(answer.headers().with("X-Padding", "p".repeat(4096)), answer.responseTime(), 0);
                }
                Buffer reply = BinaryFrames.answered(id, new Served(answer, CacheStatus.MISS, "stand-in"), System.currentTimeMillis());
                socket.write(reply.getBuffer(0, SENT_BEFORE_HOLD));
                held[0] = reply.getBuffer(SENT_BEFORE_HOLD, reply.length());
                return;
            }
            Buffer rest = held[0];
            held[0] = null;
            if (rest != null) {
                for (int at = 0; at < rest.length(); at += 16 * 1024) { // in many reads on the other side
                    socket.write(rest.getBuffer(at, Math.min(rest.length(), at + 16 * 1024)));
                }
            }
            socket.write(BinaryFrames.answered(id, new Served(new OriginAnswer(200, "text/plain", new byte[LIMIT]),
                    CacheStatus.HIT, "stand-in"), System.currentTimeMillis()));
        });
        socket.handler(reader::feed);
    }

    @AfterAll
    void stop() {
        holdRelease.complete(null);
        if (client != null) {
            client.close();
        }
        ownerServer.close();
        standIn.close();
        peers.close();
    }

    private CompletableFuture<Served> forward(Member target, String key) {
        return client.forward(target, key).toCompletableFuture();
    }

    @Test
    void aReplyOfExactlyTheLimitIsTaken() throws Exception {
        assertThat(forward(owner, "fits").get(60, TimeUnit.SECONDS).answer().body()).hasSize(LIMIT);
    }

    @Test
    void aReplyFromAnOwnerWithALargerLimitFailsTheForwardAndTheForwardsUnderWayOnItsConnectionGoOn() throws Exception {
        CompletableFuture<Served> underWay = forward(owner, "hold-1");
        assertThat(forward(owner, "large-1")).failsWithin(60, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class)
                .withCauseExactlyInstanceOf(ForwardFailedException.class)
                .withMessageContaining("a body of " + LARGE + " bytes")
                .withMessageContaining("at most " + LIMIT + " bytes (ketama.router.origin.max-body-bytes)");
        assertThat(underWay).as("the forward under way on that connection is not failed by it").isNotDone();
        assertThat(forward(owner, "fits-after").get(60, TimeUnit.SECONDS).answer().body()).hasSize(LIMIT);
        holdRelease.complete(null);
        assertThat(underWay.get(60, TimeUnit.SECONDS).answer().body()).hasSize(LIMIT);
    }

    @Test
    void aReplyIsRefusedFromItsHeadWhileItsBodyIsStillHeldAndItsBytesAreLetGo() throws Exception {
        for (String key : new String[] {"held-plain", "held-fields-1"}) {
            assertThat(forward(standInMember, key)).as(key).failsWithin(60, TimeUnit.SECONDS)
                    .withThrowableOfType(ExecutionException.class)
                    .withCauseExactlyInstanceOf(ForwardFailedException.class)
                    .withMessageContaining("over binary answered a forward with a body of " + LARGE + " bytes")
                    .withMessageContaining("ketama.router.origin.max-body-bytes");
            // on the same connection: the rest of the refused frame, then the next reply
            Served next = forward(standInMember, "next-" + key).get(60, TimeUnit.SECONDS);
            assertThat(next.answer().body()).hasSize(LIMIT);
            assertThat(next.servedBy()).isEqualTo(Members.address(standInMember));
        }
        assertThat(standInConnections).as("one connection carried them all").hasValue(1);
    }
}
