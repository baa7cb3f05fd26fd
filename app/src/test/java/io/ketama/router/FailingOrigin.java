package io.ketama.router;

import io.ketama.testing.FreePorts;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP origin on 127.0.0.1 that fails as its key says: {@code /origin/cut<N>-...} closes the
 * connection without a byte of answer on the first N requests for the key, then answers 200;
 * {@code /origin/down-...} always closes it; {@code /origin/slow<ms>-...} answers 200 after that
 * many milliseconds; anything else answers 200 at once, storable for an hour
 * ({@code Cache-Control: max-age=3600}). Counts the requests per key.
 */
final class FailingOrigin implements AutoCloseable {

    static final String PATH = "/origin/";

    private final Vertx vertx;
    private final HttpServer server;
    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();

    private FailingOrigin(Vertx vertx, int port) throws Exception {
        this.vertx = vertx;
        this.server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port)).requestHandler(this::serve);
        server.listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    static int freePort() {
        return FreePorts.take();
    }

    static String baseUrl(int port) {
        return "http://127.0.0.1:" + port + "/origin";
    }

    static FailingOrigin start(int port) throws Exception {
        return new FailingOrigin(Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1)), port);
    }

    int requests(String key) {
        AtomicInteger n = requests.get(key);
        return n == null ? 0 : n.get();
    }

    private void serve(HttpServerRequest request) {
        String key = request.path().startsWith(PATH) ? request.path().substring(PATH.length()) : "";
        int n = requests.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        if (key.startsWith("down-") || key.startsWith("cut") && n <= Integer.parseInt(key.substring(3, key.indexOf('-')))) {
            request.connection().close();
        } else if (key.startsWith("slow")) {
            long delay = Long.parseLong(key.substring(4, key.indexOf('-')));
            vertx.setTimer(delay, id -> {
                if (!request.response().closed()) {
                    request.response().end("slow answer for " + key);
                }
            });
        } else {
            request.response().putHeader("Content-Type", "text/plain").putHeader("Cache-Control", "max-age=3600")
                    .end("answer for " + key);
        }
    }

    @Override
    public void close() throws Exception {
        server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
