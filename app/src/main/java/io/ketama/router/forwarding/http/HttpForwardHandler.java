package io.ketama.router.forwarding.http;

import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.channel.RefusalLog;
import io.ketama.router.forwarding.channel.RemoteFailure;
import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.Served;
import io.ketama.router.tracing.TraceContext;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.concurrent.CompletableFuture;

/**
 * The receiving end of the {@code http} transport on a member's own HTTP port: serves the key of
 * {@code GET /_ketama/forward/<key>} with the member's {@link ForwardReceiver}, as its owner would, and
 * drops the key's stored answers on {@code DELETE} of the same path ({@link HttpForwarding}).
 * The path is on the port clients use, and whoever calls it makes the member serve and cache the
 * key, unless the members share a {@link ForwardSecret}; the binary transport's port can also be
 * kept to the cluster's network.
 *
 * <p>What it refuses (a forward without the secret: 401; a path that is no forwarded key or an
 * empty key: 400) is logged a few lines however much arrives ({@link RefusalLog}). The HTTP
 * server's own limits bound the rest (a request line of at most 64 KiB, headers).
 */
public final class HttpForwardHandler implements Handler<HttpServerRequest> {

    private final ForwardReceiver receiver;
    private final ForwardSecret secret;
    private final RefusalLog refusals;

    public HttpForwardHandler(ForwardReceiver receiver) {
        this(receiver, ForwardSecret.NONE);
    }

    /** Serves only forwards that carry {@code secret} where one is {@link ForwardSecret#required() required}. */
    public HttpForwardHandler(ForwardReceiver receiver, ForwardSecret secret) {
        this(receiver, secret, new RefusalLog("http forward path " + HttpForwarding.PREFIX));
    }

    HttpForwardHandler(ForwardReceiver receiver, ForwardSecret secret, RefusalLog refusals) {
        this.receiver = receiver;
        this.secret = secret;
        this.refusals = refusals;
    }

    @Override
    public void handle(HttpServerRequest request) {
        int version = ChannelVersion.agreed(ChannelVersion.CURRENT, ChannelVersion.parse(request.getHeader(HttpForwarding.VERSION)));
        HttpServerResponse response = request.response();
        response.putHeader(HttpForwarding.VERSION, VERSION_TEXT[version]);
        String presented = request.getHeader(HttpForwarding.SECRET);
        if (!secret.admits(presented)) {
            refusals.refused(presented == null ? RefusalLog.Reason.NO_SECRET : RefusalLog.Reason.WRONG_SECRET, request.remoteAddress(),
                    "a forward " + (presented == null ? "without the" : "with another") + " forward secret");
            fail(response.putHeader("WWW-Authenticate", "X-Ketama-Forward-Secret"), 401, RemoteFailure.FAILED,
                    "this member takes forwards only from members that show its forward secret (ketama.router.forward.secret) in "
                            + HttpForwarding.SECRET, version);
            return;
        }
        String key;
        try {
            key = HttpForwarding.key(request.uri());
        } catch (IllegalArgumentException e) {
            refusals.refused(RefusalLog.Reason.BAD_KEY, request.remoteAddress(), e.getMessage().length() > 200
                    ? e.getMessage().substring(0, 200) + "..." : e.getMessage());
            fail(response, 400, RemoteFailure.REFUSED, e.getMessage(), version);
            return;
        }
        if (request.method() == HttpMethod.DELETE) {
            if (receiver.invalidate(key)) {
                response.setStatusCode(204).end();
            } else {
                fail(response, 503, RemoteFailure.NOT_SERVING, "the member serves no keys now", version);
            }
            return;
        }
        boolean spillable = version >= ChannelVersion.SPILLS && request.getHeader(HttpForwarding.SPILLABLE) != null;
        TraceContext trace = trace(request, version);
        String target = request.getHeader(HttpForwarding.TARGET);
        String method = request.getHeader(HttpForwarding.METHOD);
        boolean older = version < ChannelVersion.HTTP_CACHING;
        KeyRequest forwarded;
        if (older) {
            forwarded = KeyRequest.of(key); // what an older member sends: the key alone
        } else if (target == null || !target.startsWith("/") || method == null || method.isEmpty()) {
            refusals.refused(RefusalLog.Reason.BAD_KEY, request.remoteAddress(), "a forward without its method or target");
            fail(response, 400, RemoteFailure.REFUSED, "a forward of version " + version + " names its method ("
                    + HttpForwarding.METHOD + ") and its target (" + HttpForwarding.TARGET + ", starting with /)", version);
            return;
        } else {
            forwarded = new KeyRequest(key, target, new CacheRequest(method, HttpForwarding.carried(request.headers(), trace != null)));
        }
        CompletableFuture<Served> answer = receiver.serve(forwarded, spillable, trace).toCompletableFuture();
        if (answer.isDone() && !answer.isCompletedExceptionally()) {
            write(response, forwarded, answer.join(), older, version);
            return;
        }
        var context = Vertx.currentContext();
        answer.whenComplete((served, failure) -> {
            Runnable reply = failure == null ? () -> write(response, forwarded, served, older, version) : () -> {
                RemoteFailure kind = RemoteFailure.of(failure);
                fail(response, kind == RemoteFailure.ORIGIN_UNAVAILABLE || kind == RemoteFailure.ORIGIN_ANSWER_TOO_LARGE
                        ? 502 : 503, kind, RemoteFailure.message(failure), version);
            };
            if (context == null || Vertx.currentContext() == context) {
                reply.run();
            } else {
                context.runOnContext(v -> reply.run());
            }
        });
    }

    /** The W3C trace context the forward carries, read only where this member traces and the sender speaks 4. */
    private TraceContext trace(HttpServerRequest request, int version) {
        if (version < ChannelVersion.TRACES || !receiver.traces()) {
            return null;
        }
        String parent = request.getHeader(HttpForwarding.TRACEPARENT);
        if (parent == null || parent.length() > TraceContext.MAX_LENGTH) {
            return null;
        }
        String state = request.getHeader(HttpForwarding.TRACESTATE);
        return new TraceContext(parent,
                state == null || state.length() > TraceContext.MAX_LENGTH ? "" : state);
    }

    /**
     * Writes {@code served}: to a member of version 5 or later its status, its fields and its body, with
     * its age; to an older one (which reads a status, a content type, a body and a redirect's
     * {@code Location}) only an answer any client may have, else a refusal, as the binary channel does.
     */
    private void write(HttpServerResponse response, KeyRequest request, Served served, boolean older, int version) {
        OriginAnswer answer = served.answer();
        if (older) {
            if (!receiver.shareableWithOlderMembers(request, served)) {
                fail(response, 503, RemoteFailure.REFUSED, "this answer is for its own client only (private, varying, or not "
                        + "to be stored): a member of channel version " + ChannelVersion.HTTP_CACHING + " or later is sent it", version);
                return;
            }
            response.setStatusCode(answer.status())
                    .putHeader("Content-Type", answer.contentType())
                    .putHeader(HttpForwarding.CACHE, served.cache().asOlderMembersKnowIt().name());
            if (answer.location() != null) {
                response.putHeader("Location", answer.location());
            }
            response.end(Buffer.buffer(answer.body()));
            return;
        }
        HttpFields fields = answer.headers();
        MultiMap headers = response.headers();
        for (int i = 0; i < fields.size(); i++) {
            if (!HttpFields.sameName(fields.name(i), "Content-Length")) {
                headers.add(fields.name(i), fields.value(i));
            }
        }
        headers.add(HttpForwarding.CACHE, served.cache().name())
                .add(HttpForwarding.AGE, Long.toString(answer.ageMillis(System.currentTimeMillis())));
        response.setStatusCode(answer.status());
        if (answer.status() == 204 || answer.status() == 304) {
            response.end(); // no body, and no length to state (RFC 9110 §8.6)
        } else {
            response.end(Buffer.buffer(answer.body()));
        }
    }

    /** A failure for a sender that speaks {@code version}: a code newer than it is sent as {@link RemoteFailure#FAILED}. */
    private static void fail(HttpServerResponse response, int status, RemoteFailure kind, String message, int version) {
        response.setStatusCode(status)
                .putHeader("Content-Type", "text/plain; charset=UTF-8")
                .putHeader(HttpForwarding.FAILURE, Integer.toString(ChannelVersion.code(kind, version)))
                .end(message);
    }

    /** The header's values, made once: {@code VERSION_TEXT[v]} for each version up to this one's. */
    private static final String[] VERSION_TEXT = versionTexts();

    private static String[] versionTexts() {
        String[] texts = new String[ChannelVersion.CURRENT + 1];
        for (int v = 1; v <= ChannelVersion.CURRENT; v++) {
            texts[v] = Integer.toString(v);
        }
        return texts;
    }
}
