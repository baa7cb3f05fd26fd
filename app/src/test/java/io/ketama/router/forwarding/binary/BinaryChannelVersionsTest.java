package io.ketama.router.forwarding.binary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.cluster.Member;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.forwarding.ChannelTests;
import io.ketama.router.forwarding.FailureKind;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.ForwardRefusedException;
import io.ketama.router.forwarding.LoopbackPeers;
import io.ketama.router.forwarding.NoUsableEndpointException;
import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.forwarding.channel.RemoteFailure;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.HttpOrigin;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.OriginRequest;
import io.ketama.router.serving.Served;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The binary channel across channel versions. A member of this release sends requests only to a member
 * that publishes version 5: to an older or silent one nothing at all (no connection; the forward fails at
 * once with {@link NoUsableEndpointException}, which says nothing of the member). To a member of this
 * release it says its version first, then FETCH; a reply it does not know, or one that is not the answer
 * to its request, fails only that forward ({@link ForwardRefusedException}) and the connection carries on.
 * A member of this release still serves an older member's plain requests ({@code SERVE},
 * {@code SERVE_SPILLABLE}, {@code SERVE_TRACED}): as a {@code GET} of {@code /<key>} without fields,
 * answered in the frames that member reads ({@code SERVED}, {@code REDIRECTED}) only with an answer any
 * client may have; a private, varying or unstorable one is refused ({@code REFUSED}, {@code FAILED} to
 * version 1). The other end is played by stand-ins that read and write exactly the frames of their version.
 */
class BinaryChannelVersionsTest {

    /**
     * A stand-in owner of this release: records every frame kind it is sent, answers the version frame
     * with its own and each FETCH, the first with a frame of the kind the test chooses, the rest with
     * ANSWERED, and each INVALIDATE with INVALIDATED.
     */
    private static final class StandIn implements AutoCloseable {
        final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final List<Byte> kindsReceived = new CopyOnWriteArrayList<>();
        final AtomicInteger accepted = new AtomicInteger();
        final Thread thread;

        StandIn(byte firstReplyKind) throws IOException {
            this(firstReplyKind, BinaryFrames.INVALIDATED);
        }

        /** As {@link #StandIn(byte)}, answering the first INVALIDATE with a frame of {@code firstInvalidateReplyKind}. */
        StandIn(byte firstReplyKind, byte firstInvalidateReplyKind) throws IOException {
            thread = new Thread(() -> {
                try (Socket s = server.accept()) {
                    accepted.incrementAndGet();
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    OutputStream out = s.getOutputStream();
                    boolean first = true;
                    boolean firstInvalidate = true;
                    while (true) {
                        Buffer frame = readFrame(in);
                        int id = frame.getInt(4);
                        byte kind = frame.getByte(8);
                        kindsReceived.add(kind);
                        Buffer reply;
                        if (kind == BinaryFrames.VERSION) {
                            reply = BinaryFrames.version(ChannelVersion.CURRENT);
                        } else if (kind == BinaryFrames.INVALIDATE) {
                            reply = firstInvalidate && firstInvalidateReplyKind == BinaryFrames.ANSWERED
                                    ? BinaryFrames.answered(id, new Served(new OriginAnswer(200, HttpFields.EMPTY, new byte[100]),
                                    CacheStatus.HIT, "stand-in"), 0)
                                    : BinaryFrames.invalidated(id);
                            firstInvalidate = false;
                        } else if (kind == BinaryFrames.FETCH) {
                            Served served = new Served(new OriginAnswer(200, HttpFields.of("Content-Type", "text/plain"), new byte[] {42}),
                                    CacheStatus.HIT, "stand-in");
                            byte replyKind = first ? firstReplyKind : BinaryFrames.ANSWERED;
                            first = false;
                            if (replyKind == BinaryFrames.ANSWERED) {
                                reply = BinaryFrames.answered(id, served, System.currentTimeMillis());
                            } else if (replyKind == BinaryFrames.SERVED) {
                                reply = BinaryFrames.served(id, served);
                            } else if (replyKind == BinaryFrames.INVALIDATED) {
                                reply = BinaryFrames.invalidated(id);
                            } else {
                                reply = Buffer.buffer().appendInt(6).appendInt(id).appendByte(replyKind).appendByte((byte) 0);
                            }
                        } else {
                            continue; // the test fails on kindsReceived
                        }
                        out.write(reply.getBytes());
                        out.flush();
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            }, "stand-in-owner");
            thread.start();
        }

        @Override
        public void close() throws Exception {
            server.close();
            thread.join(5000);
        }
    }

    /** One whole frame from {@code in}, its length field included. */
    static Buffer readFrame(DataInputStream in) throws IOException {
        int length = in.readInt();
        byte[] rest = new byte[length];
        in.readFully(rest);
        return Buffer.buffer(4 + length).appendInt(length).appendBytes(rest);
    }

    private static BinaryForwardClient client(Vertx loops) {
        return new BinaryForwardClient(loops, Duration.ofSeconds(5), Duration.ofSeconds(10), ForwardSecret.NONE,
                HttpOrigin.DEFAULT_MAX_BODY_BYTES, new BodyBudget(BodyBudget.defaultBytes(HttpOrigin.DEFAULT_MAX_BODY_BYTES)));
    }

    @Test
    void aMemberOfThisReleaseIsToldThisMembersVersionFirstThenSentFetchAndInvalidate() throws Exception {
        try (LoopbackPeers peers = new LoopbackPeers(); StandIn owner = new StandIn(BinaryFrames.ANSWERED)) {
            Vertx loops = peers.eventLoops(1);
            peers.start(Map.of());
            Member ownerMember = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(owner.server.getLocalPort()),
                    PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION)).getCluster().getLocalMember();
            peers.awaitMembers(2, Duration.ofSeconds(30));
            BinaryForwardClient client = client(loops);
            try {
                assertThat(client.forward(ownerMember, "a").toCompletableFuture().get(10, TimeUnit.SECONDS).answer().body())
                        .containsExactly(42);
                client.invalidate(ownerMember, "a").toCompletableFuture().get(10, TimeUnit.SECONDS);
                assertThat(owner.kindsReceived).containsExactly(BinaryFrames.VERSION, BinaryFrames.FETCH, BinaryFrames.INVALIDATE);
            } finally {
                client.close();
            }
        }
    }

    @Test
    void aReplyOfAKindThisMemberDoesNotKnowOrNotTheAnswerToAFetchFailsOnlyItsForward() throws Exception {
        for (byte kind : new byte[] {(byte) 99, BinaryFrames.SERVED}) {
            try (LoopbackPeers peers = new LoopbackPeers(); StandIn owner = new StandIn(kind)) {
                Vertx loops = peers.eventLoops(1);
                peers.start(Map.of());
                Member ownerMember = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(owner.server.getLocalPort()),
                        PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION)).getCluster().getLocalMember();
                peers.awaitMembers(2, Duration.ofSeconds(30));
                BinaryForwardClient client = client(loops);
                try {
                    assertThatThrownBy(() -> client.forward(ownerMember, "a").toCompletableFuture().get(10, TimeUnit.SECONDS))
                            .as("a reply of kind %d", kind)
                            .isInstanceOf(ExecutionException.class).cause().isInstanceOf(ForwardRefusedException.class)
                            .hasMessageContaining("kind " + kind);
                    assertThat(FailureKind.of(new ForwardRefusedException("x")).retryingCannotMend()).isTrue();
                    assertThat(FailureKind.of(new ForwardRefusedException("x")).saysNothingOfTheMember()).isTrue();
                    Served next = client.forward(ownerMember, "b").toCompletableFuture().get(10, TimeUnit.SECONDS);
                    assertThat(next.answer().body()).as("the next forward on the same connection").containsExactly(42);
                    assertThat(client.connections()).isEqualTo(1);
                    assertThat(owner.accepted).hasValue(1);
                } finally {
                    client.close();
                }
            }
        }
    }

    /**
     * A reply of a kind this member knows, but not the answer to the request it came for (a peer that broke
     * the protocol): an INVALIDATED for a FETCH, an ANSWERED (with a body) for an INVALIDATE. Each fails
     * only its own request, as a reply of an unknown kind does, holds nothing in the budget, and the
     * connection carries on.
     */
    @Test
    void aReplyThatIsNotTheAnswerToItsRequestFailsOnlyThatRequestAndHoldsNothing() throws Exception {
        try (LoopbackPeers peers = new LoopbackPeers(); StandIn owner = new StandIn(BinaryFrames.INVALIDATED, BinaryFrames.ANSWERED)) {
            Vertx loops = peers.eventLoops(1);
            peers.start(Map.of());
            Member ownerMember = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(owner.server.getLocalPort()),
                    PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION)).getCluster().getLocalMember();
            peers.awaitMembers(2, Duration.ofSeconds(30));
            BodyBudget budget = new BodyBudget(BodyBudget.defaultBytes(HttpOrigin.DEFAULT_MAX_BODY_BYTES));
            BinaryForwardClient client = new BinaryForwardClient(loops, Duration.ofSeconds(5), Duration.ofSeconds(10),
                    ForwardSecret.NONE, HttpOrigin.DEFAULT_MAX_BODY_BYTES, budget);
            try {
                assertThat(client.forward(ownerMember, "a").toCompletableFuture()).as("a FETCH answered INVALIDATED")
                        .failsWithin(10, TimeUnit.SECONDS).withThrowableOfType(ExecutionException.class)
                        .withCauseInstanceOf(ForwardRefusedException.class).withMessageContaining("kind " + BinaryFrames.INVALIDATED);
                assertThat(client.invalidate(ownerMember, "a").toCompletableFuture()).as("an INVALIDATE answered ANSWERED")
                        .failsWithin(10, TimeUnit.SECONDS).withThrowableOfType(ExecutionException.class)
                        .withCauseInstanceOf(ForwardRefusedException.class).withMessageContaining("not its answer");
                assertThat(budget.usedBytes()).as("the body of the reply that answered nothing").isZero();
                Served next = client.forward(ownerMember, "b").toCompletableFuture().get(10, TimeUnit.SECONDS);
                assertThat(next.answer().body()).as("the next forward on the same connection").containsExactly(42);
                next.release();
                client.invalidate(ownerMember, "b").toCompletableFuture().get(10, TimeUnit.SECONDS);
                assertThat(owner.accepted).hasValue(1);
                assertThat(budget.usedBytes()).isZero();
            } finally {
                client.close();
            }
        }
    }

    @Test
    void aMemberOlderThanVersionFiveIsSentNothingNotEvenAConnection() throws Exception {
        try (LoopbackPeers peers = new LoopbackPeers(); StandIn owner = new StandIn(BinaryFrames.SERVED)) {
            Vertx loops = peers.eventLoops(1);
            peers.start(Map.of());
            String port = Integer.toString(owner.server.getLocalPort());
            Member silent = peers.start(Map.of(PeerEndpoints.BINARY_PORT, port)).getCluster().getLocalMember();
            Member two = peers.start(Map.of(PeerEndpoints.BINARY_PORT, port, PeerEndpoints.CHANNEL_VERSION, "2"))
                    .getCluster().getLocalMember();
            Member four = peers.start(Map.of(PeerEndpoints.BINARY_PORT, port, PeerEndpoints.CHANNEL_VERSION, "4"))
                    .getCluster().getLocalMember();
            peers.awaitMembers(4, Duration.ofSeconds(30));
            BinaryForwardClient client = client(loops);
            try {
                Map<Member, Integer> versions = Map.of(silent, 1, two, 2, four, 4);
                for (Map.Entry<Member, Integer> older : versions.entrySet()) {
                    for (CompletableFuture<?> sent : List.of(client.forward(older.getKey(), "k", true, ChannelTests.TRACE)
                            .toCompletableFuture(), client.invalidate(older.getKey(), "k").toCompletableFuture())) {
                        assertThat(sent).failsWithin(10, TimeUnit.SECONDS).withThrowableOfType(ExecutionException.class)
                                .withCauseExactlyInstanceOf(NoUsableEndpointException.class)
                                .withMessageContaining("speaks channel version " + older.getValue());
                    }
                }
                assertThat(FailureKind.of(new NoUsableEndpointException("x")).saysNothingOfTheMember()).isTrue();
                assertThat(FailureKind.of(new NoUsableEndpointException("x")).retryingCannotMend()).isTrue();
                assertThat(client.connections()).isZero();
                Thread.sleep(200);
                assertThat(owner.accepted).as("connections the older members' channel took").hasValue(0);
                assertThat(owner.kindsReceived).isEmpty();
            } finally {
                client.close();
            }
        }
    }

    /**
     * An older member's plain requests on a member of this release, by hand on a socket, as that member
     * sends them: first without a version frame (version 1), then after one saying 4.
     */
    @Test
    void anOlderMembersPlainRequestsAreServedAsAGetWithoutFieldsAndAnsweredOnlyWithWhatAnyClientMayHave() throws Exception {
        List<OriginRequest> asked = new CopyOnWriteArrayList<>();
        Vertx vertx = Vertx.vertx();
        try {
            ForwardReceiver receiver = new ForwardReceiver();
            receiver.attach(new KeyServer(new LocalCache(1 << 20), request -> {
                asked.add(request);
                String key = request.target().substring(1);
                HttpFields fields = switch (key) {
                    case "private" -> HttpFields.of("Content-Type", "text/plain", "Cache-Control", "private, max-age=60");
                    case "varying" -> HttpFields.of("Content-Type", "text/plain", "Cache-Control", "max-age=60", "Vary", "Accept");
                    case "no-store" -> HttpFields.of("Content-Type", "text/plain", "Cache-Control", "no-store");
                    case "moved" -> HttpFields.of("Content-Type", "text/html", "Cache-Control", "max-age=60", "Location", "/elsewhere");
                    default -> HttpFields.of("Content-Type", "text/x-shared", "Cache-Control", "max-age=60", "ETag", "\"e\"");
                };
                return CompletableFuture.completedFuture(new OriginAnswer(key.equals("moved") ? 301 : 200, fields, key.getBytes()));
            }, "owner"));
            BinaryForwardServer server = BinaryForwardServer.start(vertx, "127.0.0.1", 0, receiver);
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
                s.setSoTimeout(10_000);
                OutputStream out = s.getOutputStream();
                DataInputStream in = new DataInputStream(s.getInputStream());

                // version 1: says no version
                out.write(BinaryFrames.serve(1, "shared").getBytes());
                Buffer shared = readFrame(in);
                assertThat(shared.getByte(8)).isEqualTo(BinaryFrames.SERVED);
                Served read = BinaryFrames.served(shared, 0, shared.getInt(0), "owner");
                assertThat(read.answer().status()).isEqualTo(200);
                assertThat(read.answer().contentType()).isEqualTo("text/x-shared");
                assertThat(read.answer().body()).isEqualTo("shared".getBytes());
                assertThat(read.cache()).isEqualTo(CacheStatus.MISS);
                out.write(BinaryFrames.serve(2, "private").getBytes());
                Buffer refusedV1 = readFrame(in);
                assertThat(refusedV1.getByte(8)).isEqualTo(BinaryFrames.FAILED);
                assertThat(BinaryFrames.failure(refusedV1, 0)).as("REFUSED, as version 1 reads it").isEqualTo(RemoteFailure.FAILED);

                // version 4
                out.write(BinaryFrames.version(4).getBytes());
                assertThat(readFrame(in).getByte(8)).isEqualTo(BinaryFrames.VERSION);
                for (String key : new String[] {"private", "varying", "no-store"}) {
                    out.write(BinaryFrames.serve(3, key).getBytes());
                    Buffer refused = readFrame(in);
                    assertThat(refused.getByte(8)).as(key).isEqualTo(BinaryFrames.FAILED);
                    assertThat(BinaryFrames.failure(refused, 0)).as(key).isEqualTo(RemoteFailure.REFUSED);
                    assertThat(BinaryFrames.failureMessage(refused, 0, refused.getInt(0)))
                            .contains("channel version " + ChannelVersion.HTTP_CACHING);
                }
                out.write(BinaryFrames.serve(4, "shared", BinaryFrames.SERVE_SPILLABLE).getBytes());
                Buffer hit = readFrame(in);
                assertThat(hit.getByte(8)).isEqualTo(BinaryFrames.SERVED);
                assertThat(BinaryFrames.served(hit, 0, hit.getInt(0), "owner").cache()).isEqualTo(CacheStatus.HIT);
                out.write(BinaryFrames.serveTraced(5, "shared", false, ChannelTests.TRACE).getBytes());
                assertThat(readFrame(in).getByte(8)).isEqualTo(BinaryFrames.SERVED);
                out.write(BinaryFrames.serve(6, "moved").getBytes());
                Buffer moved = readFrame(in);
                assertThat(moved.getByte(8)).isEqualTo(BinaryFrames.REDIRECTED);
                Served redirect = BinaryFrames.redirected(moved, 0, moved.getInt(0), "owner");
                assertThat(redirect.answer().status()).isEqualTo(301);
                assertThat(redirect.answer().location()).isEqualTo("/elsewhere");
                assertThat(redirect.answer().contentType()).isEqualTo("text/html");
            } finally {
                server.close();
            }
            assertThat(asked).extracting(OriginRequest::target)
                    .containsExactly("/shared", "/private", "/private", "/varying", "/no-store", "/moved");
            assertThat(asked).allSatisfy(request -> {
                assertThat(request.method()).isEqualTo("GET");
                assertThat(request.headers().isEmpty()).as("no fields: an older member sends none").isTrue();
            });
        } finally {
            vertx.close();
        }
    }
}
