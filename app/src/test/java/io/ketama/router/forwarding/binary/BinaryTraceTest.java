package io.ketama.router.forwarding.binary;

import static io.ketama.router.forwarding.ChannelTests.TRACE;
import static io.ketama.router.forwarding.ChannelTests.keyServer;
import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import io.ketama.router.forwarding.ChannelTests;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.LoopbackPeers;
import io.ketama.router.forwarding.NoUsableEndpointException;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.load.FixedLoads;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.HttpOrigin;
import io.ketama.router.tracing.TraceContext;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Channel version 4 (trace context) on the binary channel: a traced forward to a member of this release
 * (a FETCH flagged traced) reaches its receiver with the {@code traceparent} and {@code tracestate} it
 * was sent; an untraced forward carries nothing; a member that publishes 4 or older is sent nothing at
 * all (version 5 sends no request to an older member). An older member's
 * {@link BinaryFrames#SERVE_TRACED} still reads back as written, keeps its spillable flag (heeded only
 * on a channel that said version 3 or later), and one whose lengths run past its frame is refused, the
 * connection carrying on.
 */
class BinaryTraceTest {
    @Test
    void aTracedFrameReadsBackAsWritten() {
        Buffer frame = BinaryFrames.serveTraced(7, "k-\u00e9", true, TRACE);
        List<BinaryFrames.TracedRequest> read = new ArrayList<>();
        new BinaryFrames.Reader((buffer, start, length, id, kind) -> {
            assertThat(id).isEqualTo(7);
            assertThat(kind).isEqualTo(BinaryFrames.SERVE_TRACED);
            read.add(BinaryFrames.tracedRequest(buffer, start, length));
        }, BinaryFrames.MAX_REQUEST_FRAME).feed(frame);
        assertThat(read).containsExactly(new BinaryFrames.TracedRequest("k-\u00e9", true, TRACE));

        Buffer plain = BinaryFrames.serveTraced(8, "k", false, new TraceContext(TRACE.traceparent(), null));
        assertThat(BinaryFrames.tracedRequest(plain, 0, plain.getInt(0)))
                .isEqualTo(new BinaryFrames.TracedRequest("k", false, new TraceContext(TRACE.traceparent(), "")));
        Buffer noKey = BinaryFrames.serveTraced(9, "", false, TRACE);
        assertThat(BinaryFrames.tracedRequest(noKey, 0, noKey.getInt(0)).key()).as("an empty key reads as none").isNull();
    }

    @Test
    void aTracedFrameWhoseLengthsRunPastItIsNotRead() {
        // flags, then a traceparent length of 200 in a frame that holds 3 bytes of it
        Buffer bad = Buffer.buffer().appendInt(5 + 1 + 2 + 3).appendInt(1).appendByte(BinaryFrames.SERVE_TRACED)
                .appendByte((byte) 0).appendShort((short) 200).appendString("abc");
        assertThat(BinaryFrames.tracedRequest(bad, 0, bad.getInt(0))).isNull();
        Buffer cut = Buffer.buffer().appendInt(5 + 1).appendInt(1).appendByte(BinaryFrames.SERVE_TRACED).appendByte((byte) 0);
        assertThat(BinaryFrames.tracedRequest(cut, 0, cut.getInt(0))).isNull();
    }

    @Test
    void aTraceGoesOnlyToAMemberOfVersionFourAndOnlyWithATracedForward() throws Exception {
        try (LoopbackPeers peers = new LoopbackPeers()) {
            Vertx loops = peers.eventLoops(1);
            peers.start(Map.of());
            ForwardReceiver receiver = new ForwardReceiver();
            ChannelTests.RecordedTraces tracing = new ChannelTests.RecordedTraces();
            receiver.tracing(tracing);
            receiver.attach(keyServer("owner"));
            BinaryForwardServer server = BinaryForwardServer.start(peers.eventLoops(1), "127.0.0.1", 0, receiver);
            Member v5 = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(server.port()),
                    PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION)).getCluster().getLocalMember();
            Member v4 = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(server.port()),
                    PeerEndpoints.CHANNEL_VERSION, "4")).getCluster().getLocalMember();
            peers.awaitMembers(3, Duration.ofSeconds(30));
            BinaryForwardClient client = new BinaryForwardClient(loops, Duration.ofSeconds(5), Duration.ofSeconds(10), ForwardSecret.NONE, HttpOrigin.DEFAULT_MAX_BODY_BYTES,
                    new BodyBudget(BodyBudget.defaultBytes(HttpOrigin.DEFAULT_MAX_BODY_BYTES)));
            try {
                assertThat(client.forward(v5, "a", false, TRACE).toCompletableFuture().get(10, TimeUnit.SECONDS).answer().status())
                        .isEqualTo(200);
                assertThat(ChannelTests.cause(client.forward(v4, "b", false, TRACE))).as("to a member that says 4")
                        .isInstanceOf(NoUsableEndpointException.class).hasMessageContaining("channel version 4");
                client.forward(v5, "c", false, null).toCompletableFuture().get(10, TimeUnit.SECONDS);
                client.forward(v5, "d", false).toCompletableFuture().get(10, TimeUnit.SECONDS);
                client.forward(v5, "e", true, TRACE).toCompletableFuture().get(10, TimeUnit.SECONDS);
            } finally {
                client.close();
                server.close();
            }
            assertThat(tracing.seen).containsExactly(
                    "a " + TRACE.traceparent() + " " + TRACE.tracestate(),
                    "c none",
                    "d none",
                    "e " + TRACE.traceparent() + " " + TRACE.tracestate());
        }
    }

    @Test
    void byHandATracedRequestIsServedSpilledOnlyAfterAVersionFrameAndABadOneIsRefused() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            ForwardReceiver receiver = new ForwardReceiver();
            ChannelTests.RecordedTraces tracing = new ChannelTests.RecordedTraces();
            receiver.tracing(tracing);
            receiver.attach(keyServer("owner"), FixedLoads.full());
            BinaryForwardServer raw = BinaryForwardServer.start(vertx, "127.0.0.1", 0, receiver);
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), raw.port())) {
                s.setSoTimeout(10_000);
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                DataInputStream in = new DataInputStream(s.getInputStream());
                out.write(BinaryFrames.serveTraced(1, "x", true, TRACE).getBytes());
                assertThat(reply(in)).as("no version frame: nothing spills").isEqualTo(BinaryFrames.SERVED);
                out.write(BinaryFrames.version(4).getBytes());
                assertThat(reply(in)).isEqualTo(BinaryFrames.VERSION);
                out.write(BinaryFrames.serveTraced(2, "x", true, TRACE).getBytes());
                assertThat(reply(in)).as("spilled past the bound").isEqualTo(BinaryFrames.FAILED);
                out.write(Buffer.buffer().appendInt(5 + 1 + 2 + 3).appendInt(3).appendByte(BinaryFrames.SERVE_TRACED)
                        .appendByte((byte) 0).appendShort((short) 200).appendString("abc").getBytes());
                assertThat(reply(in)).as("lengths past the frame: refused").isEqualTo(BinaryFrames.FAILED);
                out.write(BinaryFrames.serveTraced(4, "y", false, TRACE).getBytes());
                assertThat(reply(in)).as("the connection carries on").isEqualTo(BinaryFrames.SERVED);
                out.write(BinaryFrames.fetch(5, KeyRequest.of("z"), true, TRACE).getBytes());
                assertThat(reply(in)).as("a traced spillable FETCH past the bound").isEqualTo(BinaryFrames.FAILED);
                out.write(BinaryFrames.fetch(6, KeyRequest.of("z"), false, TRACE).getBytes());
                assertThat(reply(in)).as("a traced FETCH").isEqualTo(BinaryFrames.ANSWERED);
            } finally {
                raw.close();
            }
            assertThat(tracing.seen).as("every request read came with its trace").hasSize(5)
                    .allMatch(line -> line.endsWith(TRACE.traceparent() + " " + TRACE.tracestate()));
        } finally {
            vertx.close();
        }
    }

    private static byte reply(DataInputStream in) throws java.io.IOException {
        int length = in.readInt();
        in.readInt();
        byte kind = in.readByte();
        in.readFully(new byte[length - 5]);
        return kind;
    }
}
