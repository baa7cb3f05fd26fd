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
 * {@code /origin/<key>} with what the test set for that key ({@link #answer}), else a 200 whose body
 * names the key and that may be cached for an hour ({@code Cache-Control: max-age=3600}); counts the
 * requests per key and keeps what each carried ({@link #seen}: method, fields, body). An answer the
 * test set with an {@code ETag} is answered {@code 304} (its fields, no body) to a request whose
 * {@code If-None-Match} names that tag, as an origin that validates does.
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
    private final Map<String, java.util.List<Seen>> seen = new ConcurrentHashMap<>();

    /** One request the origin received: its method, its fields (names lower-cased) and its body. */
    record Seen(String method, Map<String, java.util.List<String>> fields, String body) {
        /** The first value of field {@code name}, or null. */
        String field(String name) {
            java.util.List<String> values = fields.get(name.toLowerCase(java.util.Locale.ROOT));
            return values == null || values.isEmpty() ? null : values.get(0);
        }
    }

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
                .requestHandler(request -> request.body().onComplete(body -> self[0].serve(request,
                        body.succeeded() ? body.result().toString(StandardCharsets.UTF_8) : "")));
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

    /** The requests the origin received for {@code key} so far, in order. */
    java.util.List<Seen> seen(String key) {
        return java.util.List.copyOf(seen.getOrDefault(key, java.util.List.of()));
    }

    /** Requests the origin received for {@code key} so far. */
    int requests(String key) {
        AtomicInteger n = requests.get(key);
        return n == null ? 0 : n.get();
    }

    private void serve(io.vertx.core.http.HttpServerRequest request, String body) {
        String path = request.path();
        HttpServerResponse response = request.response();
        if (!path.startsWith(PATH + "/")) {
            response.setStatusCode(404).end();
            return;
        }
        String key = path.substring(PATH.length() + 1);
        Map<String, java.util.List<String>> fields = new java.util.TreeMap<>();
        request.headers().forEach(f -> fields.computeIfAbsent(f.getKey().toLowerCase(java.util.Locale.ROOT),
                n -> new java.util.ArrayList<>()).add(f.getValue()));
        seen.computeIfAbsent(key, k -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(new Seen(request.method().name(),
                fields, body));
        requests.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        Answer answer = answers.getOrDefault(key, new Answer(200, "text/plain; charset=UTF-8", Map.of("Cache-Control", "max-age=3600"),
                defaultBody(key), false));
        String tag = answer.headers().get("ETag");
        if (tag != null && tag.equals(request.getHeader("If-None-Match"))) {
            response.setStatusCode(304);
            answer.headers().forEach(response::putHeader);
            response.end();
            return;
        }
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
