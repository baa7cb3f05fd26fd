package io.ketama.router.forwarding.binary;

import static io.ketama.router.forwarding.ChannelTests.cause;
import static io.ketama.router.forwarding.ChannelTests.keyServer;
import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.LoopbackPeers;
import io.ketama.router.forwarding.NoUsableEndpointException;
import io.ketama.router.forwarding.SpilledException;
import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.forwarding.channel.RemoteFailure;
import io.ketama.router.load.FixedLoads;
import io.ketama.router.load.OwnerLoad;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.HttpOrigin;
import io.vertx.core.Vertx;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Channel version 3 (bounded loads) on the binary channel: a spillable request reaches an owner past
 * its bound as such (a FETCH flag, from a member of this release) and comes back spilled; a plain one is
 * served whatever the owner's load; a member older than version 5 is sent nothing, spillable or not; an
 * owner spills only what its sender marked spillable on a channel of version 3 or later, an older
 * member's {@code SERVE_SPILLABLE} as a FETCH of this release.
 */
class BinarySpillTest {
    @Test
    void overTheBinaryChannelAnOwnerPastItsBoundSpillsOnlyWhatItsSenderLetsIt() throws Exception {
        try (LoopbackPeers peers = new LoopbackPeers()) {
            Vertx loops = peers.eventLoops(1);
            peers.start(Map.of());
            ForwardReceiver receiver = new ForwardReceiver();
            OwnerLoad full = FixedLoads.full();
            receiver.attach(keyServer("owner"), full);
            BinaryForwardServer server = BinaryForwardServer.start(peers.eventLoops(1), "127.0.0.1", 0, receiver);
            Member v5 = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(server.port()),
                    PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION)).getCluster().getLocalMember();
            Member v3 = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(server.port()),
                    PeerEndpoints.CHANNEL_VERSION, "3")).getCluster().getLocalMember();
            peers.awaitMembers(3, Duration.ofSeconds(30));
            BinaryForwardClient client = new BinaryForwardClient(loops, Duration.ofSeconds(5), Duration.ofSeconds(10), ForwardSecret.NONE, HttpOrigin.DEFAULT_MAX_BODY_BYTES,
                    new BodyBudget(BodyBudget.defaultBytes(HttpOrigin.DEFAULT_MAX_BODY_BYTES)));
            try {
                assertThat(cause(client.forward(v5, "k", true))).as("spillable, to a member that says 5")
                        .isInstanceOf(SpilledException.class);
                assertThat(cause(client.forward(v5, "k", false))).as("final: served past the bound").isNull();
                assertThat(cause(client.forward(v3, "k", true))).as("to a member that says 3: sent nothing")
                        .isInstanceOf(NoUsableEndpointException.class).hasMessageContaining("channel version 3");
                assertThat(cause(client.forward(v3, "k", false))).isInstanceOf(NoUsableEndpointException.class);
                assertThat(full.spilled()).isEqualTo(1);
                assertThat(full.inWindow()).as("the one served").isEqualTo(1);
            } finally {
                client.close();
                server.close();
            }

            // by hand: the spillable kind on a connection that never said its version is served
            BinaryForwardServer raw = BinaryForwardServer.start(peers.eventLoops(1), "127.0.0.1", 0, receiver);
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), raw.port())) {
                s.setSoTimeout(10_000);
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                DataInputStream in = new DataInputStream(s.getInputStream());
                out.write(BinaryFrames.serve(1, "raw", BinaryFrames.SERVE_SPILLABLE).getBytes());
                assertThat(reply(in)).as("no version frame: version 1, nothing spills").isEqualTo(BinaryFrames.SERVED);
                out.write(BinaryFrames.version(3).getBytes());
                assertThat(reply(in)).isEqualTo(BinaryFrames.VERSION);
                out.write(BinaryFrames.serve(2, "raw", BinaryFrames.SERVE_SPILLABLE).getBytes());
                byte[] failure = new byte[1];
                assertThat(reply(in, failure)).isEqualTo(BinaryFrames.FAILED);
                assertThat(failure[0]).as("SPILLED").isEqualTo((byte) RemoteFailure.SPILLED.code());
                out.write(BinaryFrames.serve(3, "raw", BinaryFrames.SERVE).getBytes());
                assertThat(reply(in)).as("a plain request on the same connection").isEqualTo(BinaryFrames.SERVED);
            } finally {
                raw.close();
            }

            // by hand: a spillable FETCH is served on a connection that never said its version, spilled after 5
            BinaryForwardServer raw5 = BinaryForwardServer.start(peers.eventLoops(1), "127.0.0.1", 0, receiver);
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), raw5.port())) {
                s.setSoTimeout(10_000);
                DataOutputStream out = new DataOutputStream(s.getOutputStream());
                DataInputStream in = new DataInputStream(s.getInputStream());
                out.write(BinaryFrames.fetch(1, KeyRequest.of("raw"), true, null).getBytes());
                assertThat(reply(in)).as("no version frame: version 1, nothing spills").isEqualTo(BinaryFrames.ANSWERED);
                out.write(BinaryFrames.version(ChannelVersion.CURRENT).getBytes());
                assertThat(reply(in)).isEqualTo(BinaryFrames.VERSION);
                out.write(BinaryFrames.fetch(2, KeyRequest.of("raw"), true, null).getBytes());
                byte[] failure = new byte[1];
                assertThat(reply(in, failure)).isEqualTo(BinaryFrames.FAILED);
                assertThat(failure[0]).as("SPILLED").isEqualTo((byte) RemoteFailure.SPILLED.code());
                out.write(BinaryFrames.fetch(3, KeyRequest.of("raw"), false, null).getBytes());
                assertThat(reply(in)).as("a final request on the same connection").isEqualTo(BinaryFrames.ANSWERED);
            } finally {
                raw5.close();
            }
        }
    }

    private static byte reply(DataInputStream in) throws IOException {
        return reply(in, new byte[1]);
    }

    /** Reads one frame; its kind, and its first body byte into {@code first}. */
    private static byte reply(DataInputStream in, byte[] first) throws IOException {
        int length = in.readInt();
        in.readInt();
        byte kind = in.readByte();
        byte[] rest = new byte[length - 5];
        in.readFully(rest);
        if (rest.length > 0) {
            first[0] = rest[0];
        }
        return kind;
    }
}
