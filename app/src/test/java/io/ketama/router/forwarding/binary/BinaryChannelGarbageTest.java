package io.ketama.router.forwarding.binary;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.LoopbackPeers;
import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.forwarding.channel.RefusalLog;
import io.ketama.router.forwarding.channel.RemoteFailure;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.BoundedOrigin;
import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.HttpOrigin;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.Members;
import io.vertx.core.Vertx;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A member's binary channel fed garbage through real sockets on 127.0.0.1, as an attacker or a
 * broken peer would, while a real member forwards to it over the same channel: random streams of
 * frames (20,000 frames on 200 connections, from {@link GarbageStreams}, the FETCH and INVALIDATE
 * frames of channel version 5 among them, as members write them and mangled), length fields of 256 MiB,
 * slow-loris connections that trickle a frame a byte at a time, connections that each park most of a
 * frame of the longest size, ill-formed version frames. The member takes no secret (the default,
 * and the worst case: anyone who reaches the port may send keys). Its limits are made small here
 * ({@code maxHeldBytes} 1 MiB, a frame deadline of 1 s) so the test sees them act within seconds.
 *
 * <p>The honest forwards all succeed while the garbage arrives; the member holds at most its limit
 * of incomplete frames; every connection that sent what it cannot take, or too slowly, is closed;
 * and its log says what it refused in a few lines, not one per frame.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BinaryChannelGarbageTest {

    private static final Logger LOG = Logger.getLogger(BinaryChannelGarbageTest.class);
    private static final long MAX_HELD = 1024 * 1024;
    private static final Duration DEADLINE = Duration.ofSeconds(1);

    private final LoopbackPeers peers = new LoopbackPeers();
    private final List<String> logLines = new CopyOnWriteArrayList<>();
    private BinaryForwardServer server;
    private BinaryForwardClient client;
    private Member owner;

    @BeforeAll
    void start() throws Exception {
        Vertx callerVertx = peers.eventLoops(2);
        Vertx ownerVertx = peers.eventLoops(2);
        ForwardReceiver receiver = new ForwardReceiver();
        RefusalLog refusals = new RefusalLog("binary forward channel", line -> {
            logLines.add(line);
            LOG.warn(line);
        }, System::nanoTime);
        server = BinaryForwardServer.start(ownerVertx, "127.0.0.1", 0, receiver, ForwardSecret.NONE,
                new BinaryServerLimits(MAX_HELD, BinaryFrames.MAX_REQUEST_FRAME, DEADLINE.toNanos()), refusals);
        peers.start(Map.of());
        HazelcastInstance ownerHz = peers.start(Map.of(PeerEndpoints.BINARY_PORT, Integer.toString(server.port()),
                PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION));
        peers.awaitMembers(2, Duration.ofSeconds(30));
        owner = ownerHz.getCluster().getLocalMember();
        receiver.attach(new KeyServer(new LocalCache(8 << 20), new BoundedOrigin(new DemoOrigin(Duration.ZERO), 256),
                Members.address(owner)));
        client = new BinaryForwardClient(callerVertx, Duration.ofSeconds(5), Duration.ofSeconds(10), ForwardSecret.NONE, HttpOrigin.DEFAULT_MAX_BODY_BYTES,
                new BodyBudget(BodyBudget.defaultBytes(HttpOrigin.DEFAULT_MAX_BODY_BYTES)));
    }

    @AfterAll
    void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
        peers.close();
    }

    /** Forwards keys one after another until stopped, counting failures and the slowest answer. */
    private final class Honest implements Runnable {
        final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong answered = new AtomicLong();
        final List<String> failures = new CopyOnWriteArrayList<>();
        volatile long slowestNanos;

        @Override
        public void run() {
            long n = 0;
            while (running.get()) {
                String key = "honest-" + (n++ % 300);
                long t0 = System.nanoTime();
                try {
                    assertThat(client.forward(owner, key).toCompletableFuture().get(10, TimeUnit.SECONDS).answer().body())
                            .isEqualTo(DemoOrigin.contentFor(key));
                    answered.incrementAndGet();
                } catch (Exception | AssertionError e) {
                    failures.add(key + ": " + e);
                }
                slowestNanos = Math.max(slowestNanos, System.nanoTime() - t0);
            }
        }
    }

    private Socket connect() throws IOException {
        Socket s = new Socket("127.0.0.1", server.port());
        s.setSoTimeout(100);
        return s;
    }

    /** Whether the member closed {@code s} within {@code within}: reads (and drops) what it sends until the end. */
    private static boolean closedBy(Socket s, Duration within) throws IOException {
        long end = System.nanoTime() + within.toNanos();
        InputStream in = s.getInputStream();
        byte[] sink = new byte[8192];
        while (System.nanoTime() < end) {
            try {
                if (in.read(sink) < 0) {
                    return true;
                }
            } catch (SocketTimeoutException notYet) {
                // still open
            } catch (IOException reset) {
                return true;
            }
        }
        return false;
    }

    @Test
    void garbageOnTheChannelIsRefusedInAFewLinesWithinItsLimitsWhileAMemberForwardsThere() throws Exception {
        Honest honest = new Honest();
        Thread load = new Thread(honest, "honest-forwards");
        load.start();
        AtomicLong mostHeld = new AtomicLong();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                mostHeld.accumulateAndGet(server.heldBytes(), Math::max);
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "held-bytes-sampler");
        sampler.start();
        try {
            // (1) random streams: 20,000 frames on 200 connections, written whole, then let go
            GarbageStreams garbage = new GarbageStreams(2506, BinaryFrames.MAX_REQUEST_FRAME);
            byte[] kinds = {BinaryFrames.SERVE, BinaryFrames.HELLO, BinaryFrames.VERSION, BinaryFrames.FETCH, BinaryFrames.INVALIDATE};
            int streamsEnded = 0;
            for (int c = 0; c < 200; c++) {
                byte[] stream = garbage.stream(100, kinds);
                boolean fatal = GarbageStreams.expected(stream, BinaryFrames.MAX_REQUEST_FRAME).fatal();
                try (Socket s = connect()) {
                    s.getOutputStream().write(stream);
                    s.getOutputStream().flush();
                    if (fatal) {
                        assertThat(closedBy(s, Duration.ofSeconds(5))).as("stream %d, which has a length out of range", c).isTrue();
                        streamsEnded++;
                    }
                } catch (IOException resetMidWrite) {
                    streamsEnded += fatal ? 1 : 0; // closed on us while we still wrote: refused all the same
                }
            }

            // (2) a length field of 256 MiB, on 50 connections at once: each closed at once, nothing allocated for it
            List<Socket> claims = new ArrayList<>();
            for (int c = 0; c < 50; c++) {
                Socket s = connect();
                s.getOutputStream().write(ByteBuffer.allocate(9).putInt(BinaryFrames.MAX_FRAME).putInt(c).put(BinaryFrames.SERVE).array());
                claims.add(s);
            }
            for (Socket s : claims) {
                assertThat(closedBy(s, Duration.ofSeconds(5))).as("a connection that claimed a 256 MiB frame").isTrue();
                s.close();
            }

            // (3) slow-loris: 100 connections trickling a 1,000-byte frame, a byte every 300 ms; and 40 parking
            // 60 KiB of a 64 KiB frame each (2.4 MiB together, past the 1 MiB the member holds)
            List<Socket> slow = new ArrayList<>();
            for (int c = 0; c < 100; c++) {
                Socket s = connect();
                s.getOutputStream().write(ByteBuffer.allocate(20).putInt(1000).putInt(c).put(BinaryFrames.SERVE).array());
                slow.add(s);
            }
            List<Socket> parked = new ArrayList<>();
            for (int c = 0; c < 40; c++) {
                Socket s = connect();
                OutputStream out = s.getOutputStream();
                out.write(ByteBuffer.allocate(9).putInt(BinaryFrames.MAX_REQUEST_FRAME).putInt(c).put(BinaryFrames.SERVE).array());
                out.write(new byte[60 * 1024]);
                parked.add(s);
            }
            long trickleUntil = System.nanoTime() + 3 * DEADLINE.toNanos();
            while (System.nanoTime() < trickleUntil) {
                for (Socket s : slow) {
                    try {
                        s.getOutputStream().write('k');
                    } catch (IOException closed) {
                        // closed by the member already
                    }
                }
                Thread.sleep(300);
            }
            for (Socket s : slow) {
                assertThat(closedBy(s, Duration.ofSeconds(5))).as("a slow-loris connection").isTrue();
                s.close();
            }
            for (Socket s : parked) {
                assertThat(closedBy(s, Duration.ofSeconds(5))).as("a connection parking most of a frame").isTrue();
                s.close();
            }
            Thread.sleep(500); // the forwards keep going a while after the last attack
        } finally {
            honest.running.set(false);
            load.join(15_000);
            sampling.set(false);
            sampler.join(5_000);
        }
        server.flushRefusals(); // the attacks are over: the last counts into a line
        System.out.printf("BinaryChannelGarbageTest: %d honest forwards, %d failed, slowest %d ms; refused: %d malformed, %d too slow, "
                        + "%d without room; at most %,d bytes held; %d log lines%n", honest.answered.get(), honest.failures.size(),
                honest.slowestNanos / 1_000_000, server.refused(RefusalLog.Reason.MALFORMED_FRAME),
                server.refused(RefusalLog.Reason.TOO_SLOW), server.refused(RefusalLog.Reason.NO_ROOM), mostHeld.get(), logLines.size());

        assertThat(honest.failures).as("honest forwards that failed, of %d", honest.answered.get()).isEmpty();
        assertThat(honest.answered.get()).as("honest forwards answered").isGreaterThan(100);
        assertThat(Duration.ofNanos(honest.slowestNanos)).as("the slowest honest forward").isLessThan(Duration.ofSeconds(5));
        assertThat(mostHeld.get()).as("bytes of incomplete frames held").isLessThanOrEqualTo(MAX_HELD);
        assertThat(server.refused(RefusalLog.Reason.MALFORMED_FRAME)).isGreaterThanOrEqualTo(50);
        assertThat(server.refused(RefusalLog.Reason.TOO_SLOW)).as("slow-loris connections closed").isGreaterThanOrEqualTo(100);
        assertThat(server.refused(RefusalLog.Reason.NO_ROOM)).as("parked frames past the room").isGreaterThan(0);
        assertThat(logLines).as("log lines for every refusal above").hasSizeLessThanOrEqualTo(6)
                .allSatisfy(line -> assertThat(line).startsWith("binary forward channel: "));
        long logged = 0;
        for (String line : logLines) {
            java.util.regex.Matcher n = java.util.regex.Pattern.compile("(\\d+) refused since the last line").matcher(line);
            assertThat(n.find()).as(line).isTrue();
            logged += Long.parseLong(n.group(1));
        }
        long refused = 0;
        for (RefusalLog.Reason reason : RefusalLog.Reason.values()) {
            refused += server.refused(reason);
        }
        assertThat(logged).as("refusals the log lines count, against those counted").isEqualTo(refused);
    }

    /** Reads one frame from {@code in}: its id, kind and the rest. */
    private static Object[] readFrame(DataInputStream in) throws IOException {
        int length = in.readInt();
        int id = in.readInt();
        byte kind = in.readByte();
        byte[] rest = new byte[length - 5];
        in.readFully(rest);
        return new Object[] {id, kind, rest};
    }

    @Test
    void aVersionSaysWhatTheMemberAnswersWithAndAnUnknownRequestIsRefusedNotTheConnection() throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(10_000);
            DataInputStream in = new DataInputStream(s.getInputStream());
            OutputStream out = s.getOutputStream();
            // a peer that has said no version is answered as version 1: REFUSED is not known there, FAILED is sent
            out.write(ByteBuffer.allocate(9).putInt(5).putInt(7).put((byte) 77).array());
            Object[] f = readFrame(in);
            assertThat(f[0]).isEqualTo(7);
            assertThat(f[1]).isEqualTo(BinaryFrames.FAILED);
            assertThat(((byte[]) f[2])[0]).as("failure code to a version-1 peer").isEqualTo((byte) RemoteFailure.FAILED.code());
            // an ill-formed version frame: refused, the connection stays
            out.write(ByteBuffer.allocate(10).putInt(6).putInt(BinaryFrames.CONTROL_ID).put(BinaryFrames.VERSION).put((byte) 0).array());
            f = readFrame(in);
            assertThat(f[0]).isEqualTo(BinaryFrames.CONTROL_ID);
            assertThat(f[1]).isEqualTo(BinaryFrames.FAILED);
            // a version far ahead: the member answers with its own, and the two speak the lower
            out.write(BinaryFrames.version(200).getBytes());
            f = readFrame(in);
            assertThat(f[0]).isEqualTo(BinaryFrames.CONTROL_ID);
            assertThat(f[1]).isEqualTo(BinaryFrames.VERSION);
            assertThat(((byte[]) f[2])[0]).isEqualTo((byte) ChannelVersion.CURRENT);
            out.write(ByteBuffer.allocate(9).putInt(5).putInt(8).put((byte) 77).array());
            f = readFrame(in);
            assertThat(f[0]).isEqualTo(8);
            assertThat(((byte[]) f[2])[0]).as("failure code to a version-2 peer").isEqualTo((byte) RemoteFailure.REFUSED.code());
            // an empty key is refused too, and a real one served on the same connection
            out.write(ByteBuffer.allocate(9).putInt(5).putInt(9).put(BinaryFrames.SERVE).array());
            f = readFrame(in);
            assertThat(f[1]).isEqualTo(BinaryFrames.FAILED);
            assertThat(((byte[]) f[2])[0]).isEqualTo((byte) RemoteFailure.REFUSED.code());
            out.write(BinaryFrames.serve(10, "after-the-garbage").getBytes());
            f = readFrame(in);
            assertThat(f[0]).isEqualTo(10);
            assertThat(f[1]).isEqualTo(BinaryFrames.SERVED);
        }
        CompletableFuture<?> still = client.forward(owner, "still-served").toCompletableFuture();
        assertThat(still.get(10, TimeUnit.SECONDS)).isNotNull();
    }
}
