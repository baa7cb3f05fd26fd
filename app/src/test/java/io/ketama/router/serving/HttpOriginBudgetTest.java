package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ketama.testing.Await;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * An {@link HttpOrigin}'s fetches take their bodies' bytes from the member's {@link BodyBudget}:
 * a declared length whole when the head arrives, before the body is read; without one, chunk by
 * chunk as the bytes arrive; a fetch that finds no room fails with {@link OverloadedException}; and
 * every fetch gives its bytes back, once, however it ends: answered, an error status, too large with
 * and without a length, timed out, its connection closed mid-body, refused. Against a real Vert.x
 * HTTP server on 127.0.0.1 whose answers the test holds back at will.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HttpOriginBudgetTest {

    private static final int MAX_BODY = 32 * 1024;
    private static final int BUDGET = 64 * 1024;

    private Vertx clientLoops;
    private Vertx serverLoops;
    private HttpServer server;
    /** Completing it sends the rest of every answer held now. */
    private volatile CompletableFuture<Void> rest = new CompletableFuture<>();

    @BeforeAll
    void start() throws Exception {
        clientLoops = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        serverLoops = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        server = serverLoops.createHttpServer().requestHandler(request -> {
            String[] path = request.path().substring(1).split("/");
            answer(path[0], Integer.parseInt(path[1]), request.response());
        }).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @AfterEach
    void sendWhatIsHeld() {
        rest.complete(null);
        rest = new CompletableFuture<>();
    }

    @AfterAll
    void stop() {
        rest.complete(null);
        server.close();
        serverLoops.close();
        clientLoops.close();
    }

    /** What the server answers to {@code /<how>/<bytes>}. */
    private void answer(String how, int bytes, HttpServerResponse response) {
        Buffer body = Buffer.buffer(new byte[bytes]);
        var context = serverLoops.getOrCreateContext();
        switch (how) {
            case "whole" -> response.end(body);
            case "missing" -> response.setStatusCode(404).end(body);
            case "chunked" -> {
                response.setChunked(true);
                for (int at = 0; at < bytes; at += 4096) {
                    response.write(body.getBuffer(at, Math.min(bytes, at + 4096)));
                }
                response.end();
            }
            case "held" -> { // the head and 1 KiB now, the rest once released
                response.putHeader("Content-Length", Integer.toString(bytes)).write(body.getBuffer(0, 1024));
                rest.thenRun(() -> context.runOnContext(v -> {
                    if (!response.closed()) {
                        response.end(body.getBuffer(1024, bytes));
                    }
                }));
            }
            case "held-chunked" -> { // half now, the rest once released
                response.setChunked(true).write(body.getBuffer(0, bytes / 2));
                rest.thenRun(() -> context.runOnContext(v -> {
                    if (!response.closed()) {
                        response.end(body.getBuffer(bytes / 2, bytes));
                    }
                }));
            }
            case "cut" -> { // half the body, then the connection closes
                response.putHeader("Content-Length", Integer.toString(bytes)).write(body.getBuffer(0, bytes / 2));
                serverLoops.setTimer(1, id -> response.reset());
            }
            default -> response.setStatusCode(400).end();
        }
    }

    private String base() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    private HttpOrigin origin(BodyBudget budget, Duration timeout) {
        return new HttpOrigin(clientLoops, base(), timeout, 8, MAX_BODY, budget);
    }

    private static CompletableFuture<OriginAnswer> fetch(HttpOrigin origin, String key) {
        return origin.fetch(key).toCompletableFuture();
    }

    @Test
    void everyFetchGivesItsBytesBackHoweverItEnds() throws Exception {
        BodyBudget budget = new BodyBudget(BUDGET);
        HttpOrigin origin = origin(budget, Duration.ofSeconds(30));
        HttpOrigin impatient = origin(budget, Duration.ofMillis(200));
        try {
            assertThat(fetch(origin, "whole/" + MAX_BODY).get(30, TimeUnit.SECONDS).body()).hasSize(MAX_BODY);
            assertThat(budget.usedBytes()).as("given back before the answer is seen").isZero();
            assertThat(fetch(origin, "chunked/" + MAX_BODY).get(30, TimeUnit.SECONDS).body()).hasSize(MAX_BODY);
            assertThat(budget.usedBytes()).isZero();
            assertThat(fetch(origin, "missing/100").get(30, TimeUnit.SECONDS).status()).isEqualTo(404);
            assertThat(budget.usedBytes()).isZero();

            assertThat(fetch(origin, "whole/" + (MAX_BODY + 1))).failsWithin(30, TimeUnit.SECONDS)
                    .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(OriginAnswerTooLargeException.class);
            assertThat(budget.usedBytes()).isZero();
            assertThat(fetch(origin, "chunked/" + (MAX_BODY * 2))).failsWithin(30, TimeUnit.SECONDS)
                    .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(OriginAnswerTooLargeException.class);
            assertThat(budget.usedBytes()).as("a body refused as too large after part of it was read").isZero();

            assertThat(fetch(impatient, "held/" + MAX_BODY)).failsWithin(30, TimeUnit.SECONDS)
                    .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(OriginUnavailableException.class)
                    .withMessageContaining("did not answer within 200 ms");
            assertThat(budget.usedBytes()).as("a fetch that timed out holding its Content-Length").isZero();
            assertThat(fetch(impatient, "held-chunked/" + MAX_BODY)).failsWithin(30, TimeUnit.SECONDS)
                    .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(OriginUnavailableException.class);
            assertThat(budget.usedBytes()).as("a fetch that timed out holding half its chunks").isZero();

            assertThat(fetch(origin, "cut/" + MAX_BODY)).failsWithin(30, TimeUnit.SECONDS)
                    .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(OriginUnavailableException.class);
            assertThat(budget.usedBytes()).as("a fetch whose connection closed mid-body").isZero();

            HttpOrigin nowhere = new HttpOrigin(clientLoops, "http://127.0.0.1:" + closedPort(), Duration.ofSeconds(5), 1, MAX_BODY,
                    budget);
            assertThat(fetch(nowhere, "whole/1")).failsWithin(30, TimeUnit.SECONDS)
                    .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(OriginUnavailableException.class);
            nowhere.close();
            assertThat(budget.usedBytes()).isZero();

            // none given back twice either: the whole budget is there for the next fetches
            CompletableFuture<OriginAnswer> a = fetch(origin, "held/" + MAX_BODY);
            CompletableFuture<OriginAnswer> b = fetch(origin, "held/" + MAX_BODY);
            Await.until(() -> budget.usedBytes() == BUDGET, Duration.ofSeconds(30), () -> "two held fetches, " + budget.usedBytes());
            assertThat(fetch(origin, "whole/1")).failsWithin(30, TimeUnit.SECONDS)
                    .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(OverloadedException.class);
            sendWhatIsHeld();
            assertThat(a.get(30, TimeUnit.SECONDS).body()).hasSize(MAX_BODY);
            assertThat(b.get(30, TimeUnit.SECONDS).body()).hasSize(MAX_BODY);
            assertThat(budget.usedBytes()).isZero();
        } finally {
            origin.close();
            impatient.close();
        }
    }

    @Test
    void aDeclaredLengthIsReservedWholeBeforeTheBodyIsReadAndOneThatDoesNotFitIsRefusedAtOnce() throws Exception {
        int room = MAX_BODY / 2;
        BodyBudget budget = new BodyBudget(MAX_BODY + room);
        HttpOrigin origin = origin(budget, Duration.ofSeconds(30));
        try {
            CompletableFuture<OriginAnswer> held = fetch(origin, "held/" + MAX_BODY);
            Await.until(() -> budget.usedBytes() == MAX_BODY, Duration.ofSeconds(30),
                    () -> "the held fetch's Content-Length reserved with 1 KiB of it read; reserved " + budget.usedBytes());

            // 32 KiB held, 16 KiB left: 16 KiB + 1 byte refused from the head, while the held body is still held
            assertThat(fetch(origin, "whole/" + (room + 1))).failsWithin(30, TimeUnit.SECONDS)
                    .withThrowableOfType(ExecutionException.class)
                    .withCauseExactlyInstanceOf(OverloadedException.class)
                    .withMessageContaining(BodyBudget.KEY)
                    .withMessageContaining("an answer of " + (room + 1) + " bytes (its Content-Length)");
            assertThat(held).isNotDone();
            // what is left fits exactly
            assertThat(fetch(origin, "whole/" + room).get(30, TimeUnit.SECONDS).body()).hasSize(room);

            sendWhatIsHeld();
            assertThat(held.get(30, TimeUnit.SECONDS).body()).hasSize(MAX_BODY);
            assertThat(budget.usedBytes()).isZero();
        } finally {
            origin.close();
        }
    }

    @Test
    void withoutALengthTheBytesAreReservedAsTheyArriveAndRefusedWhenTheyPassTheBudget() throws Exception {
        BodyBudget budget = new BodyBudget(BUDGET);
        HttpOrigin origin = origin(budget, Duration.ofSeconds(30));
        try {
            CompletableFuture<OriginAnswer> first = fetch(origin, "held-chunked/" + MAX_BODY);
            Await.until(() -> budget.usedBytes() == MAX_BODY / 2, Duration.ofSeconds(30),
                    () -> "the half of a chunked answer that arrived reserved, no more; reserved " + budget.usedBytes());
            CompletableFuture<OriginAnswer> second = fetch(origin, "held-chunked/" + MAX_BODY);
            CompletableFuture<OriginAnswer> third = fetch(origin, "held-chunked/" + MAX_BODY);
            Await.until(() -> budget.usedBytes() == 3 * MAX_BODY / 2, Duration.ofSeconds(30),
                    () -> "three held halves reserved; reserved " + budget.usedBytes());

            // 16 KiB left, 32 KiB arriving in chunks: refused once they pass it, and what it took given back
            assertThat(fetch(origin, "chunked/" + MAX_BODY)).failsWithin(30, TimeUnit.SECONDS)
                    .withThrowableOfType(ExecutionException.class)
                    .withCauseExactlyInstanceOf(OverloadedException.class)
                    .withMessageContaining(BodyBudget.KEY)
                    .withMessageContaining("of an answer without Content-Length");
            assertThat(budget.usedBytes()).isEqualTo(3 * MAX_BODY / 2);
            assertThat(List.of(first, second, third)).noneMatch(CompletableFuture::isDone);

            // the three rests (48 KiB) arrive together into 16 KiB, freed as fetches end: whichever way
            // they interleave, each fetch is answered whole or refused, and every byte comes back
            sendWhatIsHeld();
            for (CompletableFuture<OriginAnswer> f : List.of(first, second, third)) {
                try {
                    assertThat(f.get(30, TimeUnit.SECONDS).body()).hasSize(MAX_BODY);
                } catch (ExecutionException e) {
                    assertThat(e).hasCauseExactlyInstanceOf(OverloadedException.class);
                }
            }
            assertThat(budget.usedBytes()).isZero();
        } finally {
            origin.close();
        }
    }

    @Test
    void aBudgetThatCannotHoldOneLargestBodyIsRefused() {
        assertThatThrownBy(() -> new HttpOrigin(clientLoops, base(), Duration.ofSeconds(1), 1, MAX_BODY, new BodyBudget(MAX_BODY - 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be at least its max body bytes (" + MAX_BODY + ")");
    }

    private static int closedPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return probe.getLocalPort();
        }
    }
}
