package io.ketama.router.forwarding;

import io.ketama.router.serving.Served;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.concurrent.CompletableFuture;

/**
 * The receiving end of the {@code http} transport on a member's own HTTP port: serves the key of
 * {@code GET /_ketama/forward/<key>} with the member's {@link ForwardReceiver}, as its owner would.
 * The path is on the port clients use, and whoever calls it makes the member serve and cache the
 * key, unless the members share a {@link ForwardSecret}; the binary transport's port can also be
 * kept to the cluster's network.
 */
public final class HttpForwardHandler implements Handler<HttpServerRequest> {

    private final ForwardReceiver receiver;
    private final ForwardSecret secret;

    public HttpForwardHandler(ForwardReceiver receiver) {
        this(receiver, ForwardSecret.NONE);
    }

    /** Serves only forwards that carry {@code secret} where one is {@link ForwardSecret#required() required}. */
    public HttpForwardHandler(ForwardReceiver receiver, ForwardSecret secret) {
        this.receiver = receiver;
        this.secret = secret;
    }

    @Override
    public void handle(HttpServerRequest request) {
        if (!secret.admits(request.getHeader(HttpForwarding.SECRET))) {
            fail(request.response().putHeader("WWW-Authenticate", "X-Ketama-Forward-Secret"), 401, RemoteFailure.FAILED,
                    "this member takes forwards only from members that show its forward secret (ketama.router.forward.secret) in "
                            + HttpForwarding.SECRET);
            return;
        }
        String key;
        try {
            key = HttpForwarding.key(request.uri());
        } catch (IllegalArgumentException e) {
            fail(request.response(), 400, RemoteFailure.FAILED, e.getMessage());
            return;
        }
        CompletableFuture<Served> answer = receiver.serve(key).toCompletableFuture();
        if (answer.isDone() && !answer.isCompletedExceptionally()) {
            write(request.response(), answer.join());
            return;
        }
        var context = Vertx.currentContext();
        answer.whenComplete((served, failure) -> {
            Runnable reply = failure == null ? () -> write(request.response(), served) : () -> {
                RemoteFailure kind = RemoteFailure.of(failure);
                fail(request.response(), kind == RemoteFailure.ORIGIN_UNAVAILABLE || kind == RemoteFailure.ORIGIN_ANSWER_TOO_LARGE
                        ? 502 : 503, kind, RemoteFailure.message(failure));
            };
            if (context == null || Vertx.currentContext() == context) {
                reply.run();
            } else {
                context.runOnContext(v -> reply.run());
            }
        });
    }

    private static void write(HttpServerResponse response, Served served) {
        response.setStatusCode(served.answer().status())
                .putHeader("Content-Type", served.answer().contentType())
                .putHeader(HttpForwarding.CACHE, served.cache().name());
        if (served.answer().location() != null) {
            response.putHeader("Location", served.answer().location());
        }
        response.end(io.vertx.core.buffer.Buffer.buffer(served.answer().body()));
    }

    private static void fail(HttpServerResponse response, int status, RemoteFailure kind, String message) {
        response.setStatusCode(status)
                .putHeader("Content-Type", "text/plain; charset=UTF-8")
                .putHeader(HttpForwarding.FAILURE, Integer.toString(kind.code()))
                .end(message);
    }
}
