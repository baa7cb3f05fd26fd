package io.ketama.router;

import io.ketama.testing.FreePorts;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP origin for the service under test: a Vert.x server on 127.0.0.1 that answers
 * {@code GET /origin/<key>} with what the test set for that key ({@link #answer}), else a 200 whose
 * body names the key, and counts the requests per key.
 */
final class HttpTestOrigin implements AutoCloseable {

    static final String PATH = "/origin";

    /**
     * What the origin answers for one key; {@code chunked}: without Content-Length, in chunks of at
     * most 64 KiB; {@code delayMillis}: how long it waits before it answers; {@code rest} (null: none):
     * where set, the origin sends its head and the first {@code sentBeforeRest} bytes of the body (or,
     * where that is negative, nothing at all) and holds the rest until {@code rest} completes.
     */
    record Answer(int status, String contentType, Map<String, String> headers, byte[] body, boolean chunked, long delayMillis,
                  int sentBeforeRest, CompletionStage<?> rest) {
        Answer(int status, String contentType, Map<String, String> headers, byte[] body, boolean chunked) {
            this(status, contentType, headers, body, chunked, 0);
        }

        Answer(int status, String contentType, Map<String, String> headers, byte[] body, boolean chunked, long delayMillis) {
            this(status, contentType, headers, body, chunked, delayMillis, 0, null);
        }

        /**
         * A 200 of {@code body} whose head and first {@code sentBeforeRest} bytes go at once (at least 1
         * byte for the head to go; negative: nothing at all), the rest once {@code rest} completes.
         */
        static Answer held(byte[] body, boolean chunked, int sentBeforeRest, CompletionStage<?> rest) {
            return new Answer(200, "application/octet-stream", Map.of(), body, chunked, 0, sentBeforeRest, rest);
        }
    }

    private final Vertx vertx;
    private final HttpServer server;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();

    private HttpTestOrigin(Vertx vertx, HttpServer server) {
        this.vertx = vertx;
        this.server = server;
    }

    /** A free port chosen at run time ({@link FreePorts}), for a base URL given before the origin starts. */
    static int freePort() {
        return FreePorts.take();
    }

    /** The base URL of an origin on {@code port} of 127.0.0.1. */
    static String baseUrl(int port) {
        return "http://127.0.0.1:" + port + PATH;
    }

    /** Starts listening on {@code port} of 127.0.0.1. */
    static HttpTestOrigin start(int port) throws Exception {
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        HttpTestOrigin[] self = new HttpTestOrigin[1];
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port))
                .requestHandler(request -> self[0].serve(request.path(), request.response()));
        self[0] = new HttpTestOrigin(vertx, server);
        server.listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        return self[0];
    }

    /** The Vert.x the origin runs on, for the test members' own clients of it. */
    Vertx vertx() {
        return vertx;
    }

    /** From now on, answers {@code key} with {@code answer}. */
    void answer(String key, Answer answer) {
        answers.put(key, answer);
    }

    /** From now on, answers {@code key} with the default 200. */
    void reset(String key) {
        answers.remove(key);
    }

    /** The default answer's body for {@code key}. */
    static byte[] defaultBody(String key) {
        return ("origin answer for " + key).getBytes(StandardCharsets.UTF_8);
    }

    /** Requests the origin received for {@code key} so far. */
    int requests(String key) {
        AtomicInteger n = requests.get(key);
        return n == null ? 0 : n.get();
    }

    private void serve(String path, HttpServerResponse response) {
        if (!path.startsWith(PATH + "/")) {
            response.setStatusCode(404).end();
            return;
        }
        String key = path.substring(PATH.length() + 1);
        requests.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        Answer answer = answers.getOrDefault(key, new Answer(200, "text/plain; charset=UTF-8", Map.of(), defaultBody(key), false));
        Context context = vertx.getOrCreateContext();
        if (answer.rest() != null && answer.sentBeforeRest() < 0) {
            answer.rest().whenComplete((x, e) -> context.runOnContext(v -> write(answer, response, context)));
        } else if (answer.delayMillis() > 0) {
            vertx.setTimer(answer.delayMillis(), id -> write(answer, response, context));
        } else {
            write(answer, response, context);
        }
    }

    private static void write(Answer answer, HttpServerResponse response, Context context) {
        if (response.closed()) {
            return; // the client gave up
        }
        response.setStatusCode(answer.status()).putHeader("Content-Type", answer.contentType());
        answer.headers().forEach(response::putHeader);
        byte[] body = answer.body();
        if (answer.rest() == null || answer.sentBeforeRest() < 0) {
            if (!answer.chunked()) {
                response.end(Buffer.buffer(body));
                return;
            }
            response.setChunked(true);
            writeChunks(response, body, 0, body.length);
            response.end();
            return;
        }
        if (answer.chunked()) {
            response.setChunked(true);
        } else {
            response.putHeader("Content-Length", Integer.toString(body.length));
        }
        int split = Math.min(body.length, answer.sentBeforeRest());
        writeChunks(response, body, 0, split);
        answer.rest().whenComplete((x, e) -> context.runOnContext(v -> {
            if (response.closed()) {
                return; // the client refused the answer and closed the connection
            }
            writeChunks(response, body, split, body.length);
            response.end();
        }));
    }

    private static void writeChunks(HttpServerResponse response, byte[] body, int from, int to) {
        for (int at = from; at < to; at += 64 * 1024) {
            response.write(Buffer.buffer(java.util.Arrays.copyOfRange(body, at, Math.min(to, at + 64 * 1024))));
        }
    }

    @Override
    public void close() throws Exception {
        server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
