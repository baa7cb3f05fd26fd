package io.ketama.router.forwarding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.ketama.router.load.FixedLoads;
import io.ketama.router.load.OwnerLoad;
import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.Served;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Channel version 3 (bounded loads) on each transport: a spillable request reaches an owner past its
 * bound as such and comes back {@link SpilledException} (neither retried nor a failure of the member);
 * a plain one is served whatever the owner's load; a member that publishes version 2 is sent only
 * plain requests; an owner spills only what its sender marked spillable on a channel of version 3.
 */
class SpillChannelTest {

    private static KeyServer keyServer(String address) {
        return new KeyServer(new LocalCache(1 << 20), new DemoOrigin(Duration.ZERO), address);
    }

    private static Throwable cause(java.util.concurrent.CompletionStage<Served> stage) {
        try {
            stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aSpillIsNeitherRetriedNorAFailureOfTheMember() {
        SpilledException spilled = new SpilledException("past its bound");
        assertThat(FailureKind.of(spilled).saysNothingOfTheMember()).isTrue();
        assertThat(FailureKind.of(spilled).retryingCannotMend()).isTrue();
        assertThat(RemoteFailure.of(spilled)).isEqualTo(RemoteFailure.SPILLED);
        assertThat(ChannelVersion.code(RemoteFailure.SPILLED, 2)).as("to a version-2 member (never sent: it never asks)")
                .isEqualTo(RemoteFailure.FAILED.code());
        assertThat(RemoteFailure.SPILLED.toException("m", "x")).isInstanceOf(SpilledException.class);
    }

    @Test
    void overTheBinaryChannelAnOwnerPastItsBoundSpillsOnlyWhatItsSenderLetsIt() throws Exception {
        try (LoopbackPeers peers = new LoopbackPeers()) {
            Vertx loops = peers.eventLoops(1);
            peers.start(Map.of());
            ForwardReceiver receiver = new ForwardReceiver();
            OwnerLoad full = FixedLoads.full();
            receiver.attach(keyServer("owner"), full);
            BinaryForwardServer server = BinaryForwardServer.start(peers.eventLoops(1), "127.0.0.1", 0, receiver);
            Member v3 = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(server.port()),
                    PeerEndpoints.CHANNEL_VERSION, "3")).getCluster().getLocalMember();
            Member v2 = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(server.port()),
                    PeerEndpoints.CHANNEL_VERSION, "2")).getCluster().getLocalMember();
            peers.awaitMembers(3, Duration.ofSeconds(30));
            BinaryForwardClient client = new BinaryForwardClient(loops, Duration.ofSeconds(5), Duration.ofSeconds(10));
            try {
                assertThat(cause(client.forward(v3, "k", true))).as("spillable, to a member that says 3")
                        .isInstanceOf(SpilledException.class);
                assertThat(cause(client.forward(v3, "k", false))).as("final: served past the bound").isNull();
                assertThat(cause(client.forward(v2, "k", true))).as("to a member that says 2: sent as a plain request").isNull();
                assertThat(full.spilled()).isEqualTo(1);
                assertThat(full.inWindow()).as("the two served").isEqualTo(2);
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

    @Test
    void overHttpTheHeaderIsHeededOnlyFromASenderOfVersionThree() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            ForwardReceiver receiver = new ForwardReceiver();
            receiver.attach(keyServer("owner"), FixedLoads.full());
            HttpServer http = vertx.createHttpServer().requestHandler(new HttpForwardHandler(receiver)).listen(0, "127.0.0.1")
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            HttpClient client = HttpClient.newHttpClient();
            URI key = URI.create("http://127.0.0.1:" + http.actualPort() + HttpForwarding.target("k"));
            HttpResponse<String> v3 = client.send(HttpRequest.newBuilder(key).header(HttpForwarding.VERSION, "3")
                    .header(HttpForwarding.SPILLABLE, "1").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(v3.statusCode()).isEqualTo(503);
            assertThat(v3.headers().firstValue(HttpForwarding.FAILURE)).contains(Integer.toString(RemoteFailure.SPILLED.code()));
            HttpResponse<String> v2 = client.send(HttpRequest.newBuilder(key).header(HttpForwarding.VERSION, "2")
                    .header(HttpForwarding.SPILLABLE, "1").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(v2.statusCode()).as("a version-2 sender cannot read a spill: served").isEqualTo(200);
            HttpResponse<String> plain = client.send(HttpRequest.newBuilder(key).header(HttpForwarding.VERSION, "3").build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(plain.statusCode()).isEqualTo(200);
            http.close();

            // and the client sets it only for a member that says 3
            try (LoopbackPeers peers = new LoopbackPeers()) {
                peers.start(Map.of());
                HttpServer owner = vertx.createHttpServer().requestHandler(new HttpForwardHandler(receiver)).listen(0, "127.0.0.1")
                        .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
                Member three = peers.start(Map.of(PeerEndpoints.HTTP_PORT, Integer.toString(owner.actualPort()),
                        PeerEndpoints.CHANNEL_VERSION, "3")).getCluster().getLocalMember();
                Member two = peers.start(Map.of(PeerEndpoints.HTTP_PORT, Integer.toString(owner.actualPort()),
                        PeerEndpoints.CHANNEL_VERSION, "2")).getCluster().getLocalMember();
                peers.awaitMembers(3, Duration.ofSeconds(30));
                HttpForwardClient forwards = new HttpForwardClient(vertx, Duration.ofSeconds(5), Duration.ofSeconds(10), 4);
                try {
                    assertThat(cause(forwards.forward(three, "k", true))).isInstanceOf(SpilledException.class);
                    assertThat(cause(forwards.forward(two, "k", true))).isNull();
                    assertThat(cause(forwards.forward(three, "k", false))).isNull();
                } finally {
                    forwards.close();
                    owner.close();
                }
            }
        } finally {
            vertx.close();
        }
    }

    /** The version-2 release's task: the key and its version byte, nothing after. */
    static final class V2Task implements IdentifiedDataSerializable {
        String key;
        int version;

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
            out.writeByte(2);
        }

        @Override
        public void readData(ObjectDataInput in) throws IOException {
            key = in.readString();
            version = in.readByte();
        }
    }

    @Test
    void theHazelcastTaskCarriesItsFlagWhereAVersionTwoMemberNeverReadsIt() {
        SerializationService current = new DefaultSerializationServiceBuilder()
                .addDataSerializableFactory(HazelcastForwarding.FACTORY_ID, HazelcastForwarding.factory()).build();
        SerializationService previous = new DefaultSerializationServiceBuilder()
                .addDataSerializableFactory(HazelcastForwarding.FACTORY_ID, type -> new V2Task()).build();
        HazelcastForwardTask spillable = current.toObject(current.toData(new HazelcastForwardTask("k", true)));
        assertThat(spillable.spillable()).isTrue();
        assertThat(current.<HazelcastForwardTask>toObject(current.toData(new HazelcastForwardTask("k", false))).spillable()).isFalse();
        V2Task readByPrevious = previous.toObject(current.toData(new HazelcastForwardTask("k-é", true)));
        assertThat(readByPrevious.key).isEqualTo("k-é");
        V2Task old = new V2Task();
        old.key = "k";
        HazelcastForwardTask fromPrevious = current.toObject(previous.toData(old));
        assertThat(fromPrevious.version()).isEqualTo(2);
        assertThat(fromPrevious.spillable()).as("a version-2 task has no flags").isFalse();
    }

    @Test
    void overHazelcastAnOwnerPastItsBoundSpillsASpillableTask() throws Exception {
        try (LoopbackPeers peers = new LoopbackPeers()) {
            Vertx loops = peers.eventLoops(1);
            HazelcastInstance caller = peers.start(config -> HazelcastForwarding.configure(config, 4, 64));
            ForwardReceiver receiver = new ForwardReceiver();
            receiver.attach(keyServer("owner"), FixedLoads.full());
            HazelcastInstance owner = peers.start(config -> {
                HazelcastForwarding.configure(config, 4, 64);
                config.getMemberAttributeConfig().setAttribute(PeerEndpoints.CHANNEL_VERSION, "3");
            });
            owner.getUserContext().put(ForwardReceiver.USER_CONTEXT_KEY, receiver);
            peers.awaitMembers(2, Duration.ofSeconds(30));
            HazelcastForwardClient client = new HazelcastForwardClient(caller, loops);
            Member ownerMember = owner.getCluster().getLocalMember();
            assertThat(cause(client.forward(ownerMember, "k", true))).isInstanceOf(SpilledException.class);
            assertThat(cause(client.forward(ownerMember, "k", false))).isNull();
            assertThat(new String(client.forward(ownerMember, "k2", false).toCompletableFuture().get(10, TimeUnit.SECONDS)
                    .answer().body(), StandardCharsets.ISO_8859_1)).contains("k2");
        }
    }
}
