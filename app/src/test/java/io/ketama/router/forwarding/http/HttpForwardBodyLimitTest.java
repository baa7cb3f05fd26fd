package io.ketama.router.forwarding.http;

import io.ketama.router.serving.KeyedOrigin;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.router.forwarding.ForwardFailedException;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.LoopbackPeers;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.BoundedOrigin;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.NoRoomForReplyException;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.Served;
import io.ketama.testing.Await;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The {@code http} transport takes a forward's answer only up to this member's
 * {@code ketama.router.origin.max-body-bytes}, whatever the owner sends: an owner whose own limit
 * is larger (a real {@link HttpForwardHandler} and {@link KeyServer} whose origin answers 1 MiB)
 * and a stand-in owner endpoint that sends 1 MiB without a {@code Content-Length} (chunked) both
 * fail the forward with a {@link ForwardFailedException}, which the failover chain answers with
 * the next candidate, as the binary transport fails a frame past its limit. An answer's body is held
 * in this member's budget as it arrives and by the answer until released; every forward that fails
 * gives back what it took, and one without room fails with {@link NoRoomForReplyException}, with a
 * length or without. Real members and sockets on 127.0.0.1.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpForwardBodyLimitTest {

    private static final int LIMIT = 64 * 1024;
    private static final int LARGE = 1024 * 1024;
    private static final String CHUNKED = "chunked-";

    private final LoopbackPeers peers = new LoopbackPeers();
    private HttpServer http;
    private Member owner;
    private HttpForwardClient client;
    private final BodyBudget budget = new BodyBudget(LIMIT + LIMIT / 2);

    @BeforeAll
    void start() throws Exception {
        Vertx callerVertx = peers.eventLoops(2);
        Vertx ownerVertx = peers.eventLoops(2);
        ForwardReceiver receiver = new ForwardReceiver();
        HttpForwardHandler handler = new HttpForwardHandler(receiver);
        http = ownerVertx.createHttpServer().requestHandler(request -> {
            if (HttpForwarding.key(request.uri()).startsWith(CHUNKED)) {
                // an owner endpoint that sends more than the limit without saying how much
                request.response().setChunked(true).putHeader("Content-Type", "application/octet-stream")
                        .putHeader(HttpForwarding.CACHE, "MISS");
                for (int i = 0; i < LARGE / 4096; i++) {
                    request.response().write(Buffer.buffer(new byte[4096]));
                }
                request.response().end();
            } else {
                handler.handle(request);
            }
        }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);

        peers.start(Map.of());
        HazelcastInstance ownerHz = peers.start(Map.of(PeerEndpoints.HTTP_PORT, Integer.toString(http.actualPort()),
                PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION));
        peers.awaitMembers(2, Duration.ofSeconds(60));
        owner = ownerHz.getCluster().getLocalMember();
        // the owner's origin: "large-*" keys answer 1 MiB (an owner configured to take that), others the limit exactly
        KeyServer ownerKeys = new KeyServer(new LocalCache(16 << 20), new BoundedOrigin(KeyedOrigin.of(key -> CompletableFuture.completedFuture(
                new OriginAnswer(200, "application/octet-stream", body(key.startsWith("large-") ? LARGE : LIMIT)))), 64),
                Members.address(owner));
        receiver.attach(ownerKeys);
        client = new HttpForwardClient(callerVertx, Duration.ofSeconds(5), Duration.ofSeconds(60), 4, ForwardSecret.NONE, LIMIT,
                budget);
    }

    private static byte[] body(int length) {
        byte[] body = new byte[length];
        Arrays.fill(body, (byte) 'x');
        return body;
    }

    @AfterAll
    void stop() {
        if (client != null) {
            client.close();
        }
        http.close();
        peers.close();
    }

    private CompletableFuture<Served> forward(String key) {
        return client.forward(owner, key).toCompletableFuture();
    }

    @Test
    void anAnswerOfExactlyTheLimitIsTaken() throws Exception {
        Served served = forward("fits").get(60, TimeUnit.SECONDS);
        assertThat(served.answer().body()).hasSize(LIMIT);
        assertThat(served.heldBytes()).isEqualTo(LIMIT);
        served.release();
        assertThat(budget.usedBytes()).isZero();
    }

    @Test
    void anAnswerWithoutRoomFailsTheForwardWithOrWithoutALengthAndGivesBackWhatItTook() throws Exception {
        long held = budget.maxBytes() - LIMIT / 2; // room for half an answer
        assertThat(budget.take(held)).isTrue();
        try {
            assertThat(forward("no-room")).failsWithin(60, TimeUnit.SECONDS)
                    .withThrowableOfType(ExecutionException.class)
                    .withCauseExactlyInstanceOf(NoRoomForReplyException.class)
                    .withMessageContaining("(ketama.router.admission.max-buffered-bytes)")
                    .withMessageContaining("no room for an answer of " + LIMIT + " bytes (its Content-Length)");
            assertThat(budget.usedBytes()).isEqualTo(held);
            // without a length: chunks reserved until one does not fit, then all of them given back
            assertThat(forward(CHUNKED + "no-room")).failsWithin(60, TimeUnit.SECONDS)
                    .withThrowableOfType(ExecutionException.class)
                    .withCauseExactlyInstanceOf(NoRoomForReplyException.class)
                    .withMessageContaining("of an answer without Content-Length");
            Await.until(() -> budget.usedBytes() == held, Duration.ofSeconds(60),
                    () -> "the chunks' bytes given back; the budget holds " + budget.usedBytes());
        } finally {
            budget.giveBack(held);
        }
        Served served = forward("room-again").get(60, TimeUnit.SECONDS);
        assertThat(served.answer().body()).hasSize(LIMIT);
        served.release();
        assertThat(budget.usedBytes()).isZero();
    }

    @Test
    void anAnswerLargerThanTheLimitFailsTheForwardSoTheNextCandidateServes() throws Exception {
        assertThat(forward("large-with-length")).failsWithin(60, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class)
                .withCauseExactlyInstanceOf(ForwardFailedException.class)
                .withMessageContaining(LARGE + " bytes")
                .withMessageContaining("ketama.router.origin.max-body-bytes");
        assertThat(forward(CHUNKED + "no-length")).failsWithin(60, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class)
                .withCauseExactlyInstanceOf(ForwardFailedException.class)
                .withMessageContaining("more than " + LIMIT + " bytes")
                .withMessageContaining("ketama.router.origin.max-body-bytes");
        Await.until(() -> budget.usedBytes() == 0, Duration.ofSeconds(60),
                () -> "the refused answers' bytes given back; the budget holds " + budget.usedBytes());
        // the client still forwards to that member: the refused connections were closed, not left half read
        Served after = forward("fits-after").get(60, TimeUnit.SECONDS);
        assertThat(after.answer().body()).hasSize(LIMIT);
        after.release();
    }
}
