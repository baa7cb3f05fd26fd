package io.ketama.router.forwarding.binary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.cluster.Member;
import io.ketama.router.forwarding.FailureKind;
import io.ketama.router.forwarding.ForwardRefusedException;
import io.ketama.router.forwarding.LoopbackPeers;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.HttpOrigin;
import io.ketama.router.serving.Served;
import io.vertx.core.Vertx;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a member of this release sends a member of the previous one (channel version 1, which says
 * no version anywhere) on the binary channel, and what it makes of what such a member sends: the
 * previous release is played by a stand-in owner that reads exactly the frames version 1 does and
 * refuses anything else.
 */
class BinaryChannelVersionsTest {
    /**
     * A stand-in owner that reads frames as version 1 does and answers each SERVE with a frame the
     * test chooses; it records every kind it was sent.
     */
    private static final class V1Owner implements AutoCloseable {
        final ServerSocket server = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        final List<Byte> kindsReceived = new CopyOnWriteArrayList<>();
        final Thread thread;

        V1Owner(byte firstReplyKind) throws IOException {
            thread = new Thread(() -> {
                try (Socket s = server.accept()) {
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    OutputStream out = s.getOutputStream();
                    boolean first = true;
                    while (true) {
                        int length = in.readInt();
                        int id = in.readInt();
                        byte kind = in.readByte();
                        in.readFully(new byte[length - 5]);
                        kindsReceived.add(kind);
                        if (kind != BinaryFrames.SERVE) {
                            continue; // the test fails on kindsReceived
                        }
                        byte[] body = {42};
                        byte replyKind = first ? firstReplyKind : BinaryFrames.SERVED;
                        first = false;
                        out.write(ByteBuffer.allocate(4 + 5 + 1 + 2 + 2 + body.length).putInt(5 + 1 + 2 + 2 + body.length).putInt(id)
                                .put(replyKind).put((byte) 0).putShort((short) 200).putShort((short) 0).put(body).array());
                        out.flush();
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            }, "v1-owner");
            thread.start();
        }

        @Override
        public void close() throws Exception {
            server.close();
            thread.join(5000);
        }
    }

    @Test
    void aMemberSendsAVersionOneOwnerOnlyVersionOneFramesAndAnUnknownReplyFailsOnlyItsForward() throws Exception {
        try (LoopbackPeers peers = new LoopbackPeers(); V1Owner owner = new V1Owner((byte) 9)) {
            Vertx loops = peers.eventLoops(1);
            peers.start(Map.of());
            Member ownerMember = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(owner.server.getLocalPort())))
                    .getCluster().getLocalMember();
            peers.awaitMembers(2, Duration.ofSeconds(30));
            BinaryForwardClient client = new BinaryForwardClient(loops, Duration.ofSeconds(5), Duration.ofSeconds(10), ForwardSecret.NONE, HttpOrigin.DEFAULT_MAX_BODY_BYTES,
                    new BodyBudget(BodyBudget.defaultBytes(HttpOrigin.DEFAULT_MAX_BODY_BYTES)));
            try {
                assertThatThrownBy(() -> client.forward(ownerMember, "a").toCompletableFuture().get(10, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class).cause().isInstanceOf(ForwardRefusedException.class)
                        .hasMessageContaining("kind 9");
                assertThat(FailureKind.of(new ForwardRefusedException("x")).retryingCannotMend()).isTrue();
                assertThat(FailureKind.of(new ForwardRefusedException("x")).saysNothingOfTheMember()).isTrue();
                Served next = client.forward(ownerMember, "b").toCompletableFuture().get(10, TimeUnit.SECONDS);
                assertThat(next.answer().body()).as("the next forward on the same connection").containsExactly(42);
                assertThat(client.connections()).isEqualTo(1);
                assertThat(owner.kindsReceived).as("what a version-1 owner was sent")
                        .containsExactly(BinaryFrames.SERVE, BinaryFrames.SERVE);
            } finally {
                client.close();
            }
        }
    }

    @Test
    void aMemberThatPublishesVersionTwoIsToldThisMembersVersionFirst() throws Exception {
        try (LoopbackPeers peers = new LoopbackPeers(); V1Owner owner = new V1Owner(BinaryFrames.SERVED)) {
            Vertx loops = peers.eventLoops(1);
            peers.start(Map.of());
            Member ownerMember = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(owner.server.getLocalPort()),
                    PeerEndpoints.CHANNEL_VERSION, "2")).getCluster().getLocalMember();
            peers.awaitMembers(2, Duration.ofSeconds(30));
            BinaryForwardClient client = new BinaryForwardClient(loops, Duration.ofSeconds(5), Duration.ofSeconds(10), ForwardSecret.NONE, HttpOrigin.DEFAULT_MAX_BODY_BYTES,
                    new BodyBudget(BodyBudget.defaultBytes(HttpOrigin.DEFAULT_MAX_BODY_BYTES)));
            try {
                assertThat(client.forward(ownerMember, "a").toCompletableFuture().get(10, TimeUnit.SECONDS).answer().body())
                        .containsExactly(42);
                assertThat(owner.kindsReceived).containsExactly(BinaryFrames.VERSION, BinaryFrames.SERVE);
            } finally {
                client.close();
            }
        }
    }
}
