package io.ketama.router.forwarding.binary;

import static io.ketama.router.forwarding.binary.BinaryChannelVersionsTest.readFrame;
import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.forwarding.ChannelTests;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.forwarding.channel.RefusalLog;
import io.ketama.router.forwarding.channel.RemoteFailure;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.Served;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The requests of channel version 5 on a member's binary channel, by hand on a socket as a member of
 * this release sends them (its version frame first): a malformed FETCH (lengths past its frame, an empty
 * key, a target not starting with {@code /}, a method missing, a field without a name) is answered
 * {@link RemoteFailure#REFUSED} (as {@code FAILED} to a peer that said no version) and counted, and the
 * connection carries on; INVALIDATE drops the key's stored answers and is answered INVALIDATED, an
 * empty key is refused, and a member with no receiver attached answers {@link RemoteFailure#NOT_SERVING}.
 */
class BinaryFetchChannelTest {

    private Vertx vertx;
    private ForwardReceiver receiver;
    private KeyServer keys;
    private BinaryForwardServer server;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        receiver = new ForwardReceiver();
        keys = ChannelTests.keyServer("owner");
        receiver.attach(keys);
        server = BinaryForwardServer.start(vertx, "127.0.0.1", 0, receiver);
    }

    @AfterEach
    void stop() {
        server.close();
        vertx.close();
    }

    /** A FETCH frame written field by field, for requests no member writes. */
    private static Buffer fetch(int id, String method, String key, String target) {
        Buffer b = Buffer.buffer().appendInt(0).appendInt(id).appendByte(BinaryFrames.FETCH).appendByte((byte) 0)
                .appendShort((short) method.length()).appendString(method, "ISO-8859-1")
                .appendShort((short) key.length()).appendString(key, "ISO-8859-1")
                .appendShort((short) target.length()).appendString(target, "ISO-8859-1")
                .appendShort((short) 0);
        return b.setInt(0, b.length() - 4);
    }

    private static void assertFailed(Buffer frame, int id, RemoteFailure failure) {
        assertThat(frame.getInt(4)).isEqualTo(id);
        assertThat(frame.getByte(8)).isEqualTo(BinaryFrames.FAILED);
        assertThat(BinaryFrames.failure(frame, 0)).as(BinaryFrames.failureMessage(frame, 0, frame.getInt(0))).isEqualTo(failure);
    }

    private static Served answered(Buffer frame, int id) {
        assertThat(frame.getInt(4)).isEqualTo(id);
        assertThat(frame.getByte(8)).isEqualTo(BinaryFrames.ANSWERED);
        return BinaryFrames.answered(frame, 0, frame.getInt(0), "owner", System.currentTimeMillis(), null, 0);
    }

    @Test
    void aMalformedFetchIsRefusedAndTheConnectionCarriesOn() throws Exception {
        Buffer whole = BinaryFrames.fetch(0, new KeyRequest("k", "/k", new CacheRequest("GET", HttpFields.of("Accept", "*/*"))), false,
                null);
        Buffer cut = whole.getBuffer(0, whole.length() - 3).setInt(0, whole.length() - 7); // the last field's value runs past it
        Buffer nameless = Buffer.buffer().appendInt(0).appendInt(0).appendByte(BinaryFrames.FETCH).appendByte((byte) 0)
                .appendShort((short) 3).appendString("GET").appendShort((short) 1).appendString("k").appendShort((short) 2)
                .appendString("/k").appendShort((short) 1).appendShort((short) 0).appendInt(0);
        nameless.setInt(0, nameless.length() - 4);
        Buffer hugeValue = Buffer.buffer().appendInt(0).appendInt(0).appendByte(BinaryFrames.FETCH).appendByte((byte) 0)
                .appendShort((short) 3).appendString("GET").appendShort((short) 1).appendString("k").appendShort((short) 2)
                .appendString("/k").appendShort((short) 1).appendShort((short) 1).appendString("a").appendInt(Integer.MAX_VALUE);
        hugeValue.setInt(0, hugeValue.length() - 4);
        List<Buffer> malformed = List.of(cut, fetch(0, "GET", "", "/k"), fetch(0, "GET", "k", "k"), fetch(0, "", "k", "/k"),
                fetch(0, "GET", "k", ""), nameless, hugeValue);
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            DataInputStream in = new DataInputStream(s.getInputStream());
            // a peer that said no version: REFUSED is a code it does not know
            out.write(cut.copy().setInt(4, 1).getBytes());
            assertFailed(readFrame(in), 1, RemoteFailure.FAILED);
            out.write(BinaryFrames.version(ChannelVersion.CURRENT).getBytes());
            assertThat(readFrame(in).getByte(8)).isEqualTo(BinaryFrames.VERSION);
            int id = 10;
            for (Buffer bad : malformed) {
                out.write(bad.copy().setInt(4, id).getBytes());
                assertFailed(readFrame(in), id, RemoteFailure.REFUSED);
                id++;
            }
            out.write(whole.copy().setInt(4, id).getBytes());
            Served served = answered(readFrame(in), id);
            assertThat(served.answer().status()).as("the connection carries on").isEqualTo(200);
        }
        assertThat(server.refused(RefusalLog.Reason.MALFORMED_FRAME)).isEqualTo(1 + malformed.size());
        assertThat(server.connections()).isLessThanOrEqualTo(1);
    }

    /**
     * An answer whose fields a forwarding member's reader would not take (past
     * {@link BinaryFrames#MAX_ANSWER_FIELDS}) is not sent as a frame, which would end the connection and
     * every forward under way on it: it is answered {@link RemoteFailure#ORIGIN_ANSWER_TOO_LARGE}, and the
     * connection carries on.
     */
    @Test
    void anAnswerWithMoreFieldsThanAReaderTakesIsAnsweredTooLargeAndTheConnectionCarriesOn() throws Exception {
        String wide = "v".repeat(64 * 1024);
        HttpFields.Builder many = HttpFields.builder();
        for (int i = 0; i * wide.length() <= BinaryFrames.MAX_ANSWER_FIELDS; i++) {
            many.add("X-Wide-" + i, wide);
        }
        HttpFields huge = many.add("Cache-Control", "max-age=60").build();
        receiver.attach(new KeyServer(new io.ketama.router.serving.LocalCache(16 << 20), request -> java.util.concurrent.CompletableFuture
                .completedFuture(new io.ketama.router.caching.OriginAnswer(200, request.target().equals("/wide") ? huge
                        : HttpFields.of("Cache-Control", "max-age=60"), new byte[] {1})), "owner"));
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            DataInputStream in = new DataInputStream(s.getInputStream());
            out.write(BinaryFrames.version(ChannelVersion.CURRENT).getBytes());
            assertThat(readFrame(in).getByte(8)).isEqualTo(BinaryFrames.VERSION);
            out.write(BinaryFrames.fetch(1, KeyRequest.of("wide"), false, null).getBytes());
            Buffer failed = readFrame(in);
            assertFailed(failed, 1, RemoteFailure.ORIGIN_ANSWER_TOO_LARGE);
            assertThat(BinaryFrames.failureMessage(failed, 0, failed.getInt(0))).contains("fields");
            out.write(BinaryFrames.fetch(2, KeyRequest.of("narrow"), false, null).getBytes());
            assertThat(answered(readFrame(in), 2).answer().body()).containsExactly(1);
        }
    }

    @Test
    void anInvalidateDropsTheKeysStoredAnswersAndIsAnsweredInvalidated() throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            DataInputStream in = new DataInputStream(s.getInputStream());
            out.write(BinaryFrames.version(ChannelVersion.CURRENT).getBytes());
            assertThat(readFrame(in).getByte(8)).isEqualTo(BinaryFrames.VERSION);
            out.write(BinaryFrames.fetch(1, KeyRequest.of("k-\u00e9"), false, null).getBytes());
            assertThat(answered(readFrame(in), 1).cache()).isEqualTo(CacheStatus.MISS);
            out.write(BinaryFrames.fetch(2, KeyRequest.of("k-\u00e9"), false, null).getBytes());
            assertThat(answered(readFrame(in), 2).cache()).isEqualTo(CacheStatus.HIT);
            assertThat(keys.cache().peek("k-\u00e9")).isNotNull();

            out.write(BinaryFrames.invalidate(3, "k-\u00e9").getBytes());
            Buffer invalidated = readFrame(in);
            assertThat(invalidated.getInt(4)).isEqualTo(3);
            assertThat(invalidated.getByte(8)).isEqualTo(BinaryFrames.INVALIDATED);
            assertThat(keys.cache().peek("k-\u00e9")).as("its stored answers dropped").isNull();
            out.write(BinaryFrames.fetch(4, KeyRequest.of("k-\u00e9"), false, null).getBytes());
            assertThat(answered(readFrame(in), 4).cache()).as("fetched again").isEqualTo(CacheStatus.MISS);

            out.write(BinaryFrames.invalidate(5, "").getBytes());
            assertFailed(readFrame(in), 5, RemoteFailure.REFUSED);

            receiver.detach();
            out.write(BinaryFrames.invalidate(6, "k-\u00e9").getBytes());
            assertFailed(readFrame(in), 6, RemoteFailure.NOT_SERVING);
            assertThat(keys.cache().peek("k-\u00e9")).as("not dropped by a member serving no keys").isNotNull();
            receiver.attach(keys);
            out.write(BinaryFrames.invalidate(7, "never-stored").getBytes());
            assertThat(readFrame(in).getByte(8)).as("a key it holds nothing of").isEqualTo(BinaryFrames.INVALIDATED);
        }
    }
}
