package io.ketama.router.forwarding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.cluster.Member;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.OriginAnswer;
import io.ketama.router.serving.Served;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * no version anywhere), and what it makes of what such a member sends, per transport: the previous
 * release is played by stand-ins that read exactly as version 1 does (its Hazelcast payloads'
 * fields, its binary frames, its headers) and refuse anything else.
 */
class ChannelVersionsTest {

    /** The previous release's task: the key, nothing after it (its readData as released). */
    static final class V1Task implements IdentifiedDataSerializable {
        String key;

        @Override
        public int getFactoryId() {
            return HazelcastForwarding.FACTORY_ID;
        }

        @Override
        public int getClassId() {
            return HazelcastForwarding.TASK;
        }

        @Override
        public void writeData(ObjectDataOutput out) throws IOException {
            out.writeString(key);
        }

        @Override
        public void readData(ObjectDataInput in) throws IOException {
            key = in.readString();
        }
    }

    private static SerializationService serialization(com.hazelcast.nio.serialization.DataSerializableFactory factory) {
        return new DefaultSerializationServiceBuilder().addDataSerializableFactory(HazelcastForwarding.FACTORY_ID, factory).build();
    }

    @Test
    void hazelcastPayloadsOfEitherVersionReadOnTheOther() {
        SerializationService current = serialization(HazelcastForwarding.factory());
        SerializationService previous = serialization(type -> type == HazelcastForwarding.TASK ? new V1Task() : null);

        Data fromCurrent = current.toData(new HazelcastForwardTask("k-é"));
        V1Task readByPrevious = previous.toObject(fromCurrent);
        assertThat(readByPrevious.key).as("the previous release reads the key and stops before the version").isEqualTo("k-é");

        V1Task old = new V1Task();
        old.key = "k2";
        HazelcastForwardTask readByCurrent = current.toObject(previous.toData(old));
        assertThat(readByCurrent.version()).as("a task without a version is version 1").isEqualTo(1);
        assertThat(current.<HazelcastForwardTask>toObject(fromCurrent).version()).isEqualTo(ChannelVersion.CURRENT);

        Served served = new Served(new OriginAnswer(302, "text/html", new byte[] {1, 2}, "/x"), CacheStatus.MISS, "m");
        HazelcastForwardReply reply = current.toObject(current.toData(HazelcastForwardReply.served(served)));
        assertThat(reply.served()).isEqualTo(served);
        assertThat(reply.version()).isEqualTo(ChannelVersion.CURRENT);
        HazelcastForwardReply refused = current.toObject(current.toData(
                HazelcastForwardReply.failed(RemoteFailure.REFUSED, "no", 1)));
        assertThat(refused.failure()).as("a code version 1 does not know goes to it as FAILED").isEqualTo(RemoteFailure.FAILED);
    }

    @Test
    void theHttpPathAnswersAVersionOneForwardWithWhatVersionOneKnows() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            ForwardReceiver receiver = new ForwardReceiver();
            HttpServer http = vertx.createHttpServer().requestHandler(new HttpForwardHandler(receiver)).listen(0, "127.0.0.1")
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            HttpClient client = HttpClient.newHttpClient();
            URI bad = URI.create("http://127.0.0.1:" + http.actualPort() + HttpForwarding.PREFIX);
            HttpResponse<String> v1 = client.send(HttpRequest.newBuilder(bad).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(v1.statusCode()).isEqualTo(400);
            assertThat(v1.headers().firstValue(HttpForwarding.FAILURE)).contains(Integer.toString(RemoteFailure.FAILED.code()));
            assertThat(v1.headers().firstValue(HttpForwarding.VERSION)).contains("1");
            HttpResponse<String> v2 = client.send(HttpRequest.newBuilder(bad).header(HttpForwarding.VERSION, "2").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(v2.headers().firstValue(HttpForwarding.FAILURE)).contains(Integer.toString(RemoteFailure.REFUSED.code()));
            assertThat(v2.headers().firstValue(HttpForwarding.VERSION)).contains("2");
            HttpResponse<String> v9 = client.send(HttpRequest.newBuilder(bad).header(HttpForwarding.VERSION, "9").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(v9.headers().firstValue(HttpForwarding.VERSION)).as("the lower of the two")
                    .contains(Integer.toString(ChannelVersion.CURRENT));
            http.close();
        } finally {
            vertx.close();
        }
    }

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
            BinaryForwardClient client = new BinaryForwardClient(loops, Duration.ofSeconds(5), Duration.ofSeconds(10));
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
            BinaryForwardClient client = new BinaryForwardClient(loops, Duration.ofSeconds(5), Duration.ofSeconds(10));
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
