package io.ketama.router.forwarding.binary;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import io.ketama.router.forwarding.ForwardFailedException;
import io.ketama.router.forwarding.LoopbackPeers;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.NoRoomForReplyException;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.Served;
import io.ketama.testing.Await;
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
 * The binary transport holds a reply's body in this member's {@link BodyBudget} from the frame's
 * head on: taken there, while the body is still on its way, and held by the {@link Served} answer
 * until it is released. A reply the budget has no room for fails its forward with
 * {@link NoRoomForReplyException} from its head, its bytes let go, the connection carrying on; a
 * reply cut off mid-body by its connection gives its bytes back. Two stand-in owners of this release
 * (binary servers on 127.0.0.1 that answer FETCH with ANSWERED and hold a reply's body at will) behind
 * real Hazelcast members that publish channel version 5.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BinaryForwardReplyBudgetTest {

    private static final int LIMIT = 64 * 1024;
    /** Room for one reply of {@link #LIMIT} and a half. */
    private static final int BUDGET = LIMIT + LIMIT / 2;
    private static final int SMALL = 1024;
    /** Bytes of a held reply sent before the rest is held back: its head and a little body. */
    private static final int SENT_BEFORE_HOLD = 256;

    private final LoopbackPeers peers = new LoopbackPeers();
    private final BodyBudget budget = new BodyBudget(BUDGET);
    private NetServer holding;
    private NetServer plain;
    private Member holdingMember;
    private Member plainMember;
    private BinaryForwardClient client;
    private final AtomicInteger plainConnections = new AtomicInteger();
    private final CompletableFuture<Void> release = new CompletableFuture<>();
    private final CompletableFuture<Void> cut = new CompletableFuture<>();

    @BeforeAll
    void start() throws Exception {
        Vertx callerVertx = peers.eventLoops(1); // one event loop: one connection to each peer
        Vertx ownerVertx = peers.eventLoops(1);
        holding = ownerVertx.createNetServer().connectHandler(this::holding)
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        plain = ownerVertx.createNetServer().connectHandler(this::plain)
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        peers.start(Map.of());
        holdingMember = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(holding.actualPort()),
                PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION)).getCluster().getLocalMember();
        plainMember = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(plain.actualPort()),
                PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION)).getCluster().getLocalMember();
        peers.awaitMembers(3, Duration.ofSeconds(60));
        client = new BinaryForwardClient(callerVertx, Duration.ofSeconds(5), Duration.ofSeconds(120), ForwardSecret.NONE, LIMIT,
                budget);
    }

    @AfterAll
    void stop() {
        release.complete(null);
        cut.complete(null);
        if (client != null) {
            client.close();
        }
        holding.close();
        plain.close();
        peers.close();
    }

    private static Buffer reply(int id, int bodyBytes) {
        return BinaryFrames.answered(id, new Served(new OriginAnswer(200, "application/octet-stream", new byte[bodyBytes]),
                CacheStatus.MISS, "stand-in"), System.currentTimeMillis());
    }

    /**
     * {@code held-*}: the head of a reply of {@link #LIMIT}, the rest once {@link #release} completes;
     * {@code cut-*}: that head, then the connection closes once {@link #cut} completes.
     */
    private void holding(NetSocket socket) {
        socket.handler(new BinaryFrames.Reader((buffer, start, length, id, kind) -> {
            if (kind != BinaryFrames.FETCH) {
                return;
            }
            String key = BinaryFrames.fetchRequest(buffer, start, length).request().key();
            Buffer reply = reply(id, LIMIT);
            socket.write(reply.getBuffer(0, SENT_BEFORE_HOLD));
            if (key.startsWith("cut-")) {
                cut.thenRun(socket::close);
            } else {
                release.thenRun(() -> socket.write(reply.getBuffer(SENT_BEFORE_HOLD, reply.length())));
            }
        })::feed);
    }

    /** {@code large-*}: a reply of {@link #LIMIT} sent whole, in many pieces; any other key one of {@link #SMALL}. */
    private void plain(NetSocket socket) {
        plainConnections.incrementAndGet();
        socket.handler(new BinaryFrames.Reader((buffer, start, length, id, kind) -> {
            if (kind != BinaryFrames.FETCH) {
                return;
            }
            Buffer reply = reply(id, BinaryFrames.fetchRequest(buffer, start, length).request().key().startsWith("large-") ? LIMIT : SMALL);
            for (int at = 0; at < reply.length(); at += 4096) {
                socket.write(reply.getBuffer(at, Math.min(reply.length(), at + 4096)));
            }
        })::feed);
    }

    private CompletableFuture<Served> forward(Member target, String key) {
        return client.forward(target, key).toCompletableFuture();
    }

    private void awaitUsed(long bytes, String why) {
        Await.until(() -> budget.usedBytes() == bytes, Duration.ofSeconds(60),
                () -> why + ": the budget holds " + budget.usedBytes() + ", not " + bytes);
    }

    @Test
    void aReplyHoldsItsBytesFromItsHeadAndOneWithoutRoomIsRefusedThereWhileTheConnectionCarriesOn() throws Exception {
        CompletableFuture<Served> held = forward(holdingMember, "held-1");
        awaitUsed(LIMIT, "a reply whose body is still held: its length taken from its head");
        assertThat(held).isNotDone();

        assertThat(forward(plainMember, "large-1")).failsWithin(60, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class)
                .withCauseExactlyInstanceOf(NoRoomForReplyException.class)
                .withMessageContaining("this member holds " + LIMIT + " of at most " + BUDGET + " bytes of received bodies "
                        + "(ketama.router.admission.max-buffered-bytes)")
                .withMessageContaining("no room for a reply of " + LIMIT + " bytes from member");
        assertThat(budget.usedBytes()).as("the refused reply holds nothing").isEqualTo(LIMIT);

        // the refused frame's bytes went by on that connection; the next reply on it fits and is kept
        Served small = forward(plainMember, "small-1").get(60, TimeUnit.SECONDS);
        assertThat(small.answer().body()).hasSize(SMALL);
        assertThat(small.heldBytes()).isEqualTo(SMALL);
        assertThat(budget.usedBytes()).isEqualTo(LIMIT + SMALL);
        small.release();
        assertThat(plainConnections).as("one connection carried both").hasValue(1);

        release.complete(null);
        Served whole = held.get(60, TimeUnit.SECONDS);
        assertThat(whole.answer().body()).hasSize(LIMIT);
        assertThat(budget.usedBytes()).as("held by the answer until it is released").isEqualTo(LIMIT);
        whole.release();
        whole.release();
        assertThat(budget.usedBytes()).isZero();
    }

    @Test
    void aReplyCutOffMidBodyGivesItsBytesBack() {
        awaitUsed(0, "nothing held before");
        CompletableFuture<Served> cutOff = forward(holdingMember, "cut-1");
        awaitUsed(LIMIT, "the reply's length taken from its head");
        cut.complete(null);
        assertThat(cutOff).failsWithin(60, TimeUnit.SECONDS).withThrowableOfType(ExecutionException.class)
                .withCauseExactlyInstanceOf(ForwardFailedException.class)
                .withMessageContaining("its binary channel closed");
        awaitUsed(0, "the cut reply's bytes given back");
    }
}
