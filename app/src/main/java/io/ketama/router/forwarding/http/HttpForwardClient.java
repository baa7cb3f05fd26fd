package io.ketama.router.forwarding.http;

import com.hazelcast.cluster.Member;
import io.ketama.router.forwarding.ForwardFailedException;
import io.ketama.router.forwarding.ForwardTransport;
import io.ketama.router.forwarding.NoUsableEndpointException;
import io.ketama.router.forwarding.TransportKind;
import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.forwarding.channel.RemoteFailure;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.tracing.TraceContext;
import io.ketama.router.serving.BoundedBody;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.HttpOrigin;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.NoRoomForReplyException;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.Served;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Forwards by HTTP/1.1 to the owner's own HTTP port ({@link HttpForwarding}), over a pool of
 * keep-alive connections per peer (Vert.x: the answer arrives on the event loop of the request
 * that made the forward). It takes an answer's body only up to this member's own
 * {@code ketama.router.origin.max-body-bytes} ({@link BoundedBody}), whatever the owner's limit: a
 * larger one fails the forward, which the next candidate then serves.
 *
 * <p>An answer's body is held in this member's {@link BodyBudget} as it arrives: its whole
 * {@code Content-Length} when the head comes, before the body is read, or, without one, each chunk
 * before it is kept; the {@link Served} answer then holds those bytes until whoever sends it on
 * releases them, and a forward that fails gives them back at once. An answer that finds no room
 * fails its forward with {@link NoRoomForReplyException} (its connection closed, as for a body too
 * large), which ends the failover chain at once with a 503 {@code overloaded}: the next candidate's
 * answer would need the same room here. (Its share is a small object per forward, as an origin
 * fetch's is, beside the many this transport makes per forward anyway; the binary transport's
 * share costs none.)
 */
public final class HttpForwardClient implements ForwardTransport {

    private static final CacheStatus[] STATUSES = CacheStatus.values();
    /** The largest header block of an answer taken: the largest an origin's may be, and room for this channel's fields. */
    private static final int MAX_ANSWER_HEADER_BYTES = 1024 * 1024 + 8 * 1024;
    /** The {@link ChannelVersion} every forward says it speaks; a version-1 owner ignores the header. */
    private static final String THIS_VERSION = Integer.toString(ChannelVersion.CURRENT);

    private final HttpClient client;
    private final long expiryMillis;
    /** The {@link ForwardSecret} header's value; null where the members share none. */
    private final String secret;
    /** The largest body of a forward's answer taken: {@code ketama.router.origin.max-body-bytes}. */
    private final int maxBodyBytes;
    /** Where answers' bodies are held: {@code ketama.router.admission.max-buffered-bytes}. */
    private final BodyBudget budget;

    /** @throws IllegalArgumentException when {@code maxConnectionsPerPeer} is outside 1..10,000 ({@code ketama.router.forward.http.max-connections}) */
    public static void checkMaxConnections(int maxConnectionsPerPeer) {
        if (maxConnectionsPerPeer < 1 || maxConnectionsPerPeer > 10_000) {
            throw new IllegalArgumentException(".http.max-connections: must be in 1..10000, was " + maxConnectionsPerPeer);
        }
    }

    /**
     * @param maxConnectionsPerPeer keep-alive connections kept to each member at most
     * @param expiry                how long a forward may stay unanswered before this client gives up
     *                              on it (set it past the guard's timeout)
     */
    public HttpForwardClient(Vertx vertx, Duration connectTimeout, Duration expiry, int maxConnectionsPerPeer) {
        this(vertx, connectTimeout, expiry, maxConnectionsPerPeer, ForwardSecret.NONE);
    }

    /** {@link #HttpForwardClient(Vertx, Duration, Duration, int)} showing {@code secret} on every forward where one is set. */
    public HttpForwardClient(Vertx vertx, Duration connectTimeout, Duration expiry, int maxConnectionsPerPeer, ForwardSecret secret) {
        this(vertx, connectTimeout, expiry, maxConnectionsPerPeer, secret, HttpOrigin.DEFAULT_MAX_BODY_BYTES);
    }

    /**
     * {@link #HttpForwardClient(Vertx, Duration, Duration, int, ForwardSecret)} taking answers whose
     * body is at most {@code maxBodyBytes} (at least 1), held in a budget of their own of the
     * default size ({@link BodyBudget#defaultBytes}).
     */
    public HttpForwardClient(Vertx vertx, Duration connectTimeout, Duration expiry, int maxConnectionsPerPeer, ForwardSecret secret,
                             int maxBodyBytes) {
        this(vertx, connectTimeout, expiry, maxConnectionsPerPeer, secret, maxBodyBytes,
                new BodyBudget(BodyBudget.defaultBytes(Math.max(1, maxBodyBytes))));
    }

    /**
     * {@link #HttpForwardClient(Vertx, Duration, Duration, int, ForwardSecret, int)} holding
     * answers' bodies in {@code budget}, which the member's other bodies share.
     */
    public HttpForwardClient(Vertx vertx, Duration connectTimeout, Duration expiry, int maxConnectionsPerPeer, ForwardSecret secret,
                             int maxBodyBytes, BodyBudget budget) {
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("max body bytes must be >= 1, was " + maxBodyBytes);
        }
        this.maxBodyBytes = maxBodyBytes;
        this.budget = Objects.requireNonNull(budget, "budget");
        this.secret = secret.required() ? secret.text() : null;
        checkMaxConnections(maxConnectionsPerPeer);
        this.client = vertx.createHttpClient(new HttpClientOptions()
                        .setKeepAlive(true)
                        .setTcpNoDelay(true)
                        // an answer carries its origin's fields, up to ketama.router.origin.max-header-bytes (at most 1 MiB)
                        .setMaxHeaderSize(MAX_ANSWER_HEADER_BYTES)
                        .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis())),
                new PoolOptions().setHttp1MaxSize(maxConnectionsPerPeer));
        this.expiryMillis = expiry.toMillis();
    }

    @Override
    public CompletionStage<Served> forward(Member target, KeyRequest request, boolean spillable, TraceContext trace) {
        PeerEndpoints.Endpoint endpoint;
        try {
            endpoint = endpoint(target);
        } catch (NoUsableEndpointException e) {
            return CompletableFuture.failedFuture(e);
        }
        String address = Members.address(target);
        RequestOptions options = options(endpoint, HttpMethod.GET, request.key())
                .putHeader(HttpForwarding.METHOD, request.request().method())
                .putHeader(HttpForwarding.TARGET, request.target());
        HttpFields fields = request.request().headers();
        for (int i = 0; i < fields.size(); i++) {
            options.addHeader(fields.name(i), fields.value(i));
        }
        if (spillable) {
            options.putHeader(HttpForwarding.SPILLABLE, "1");
        }
        if (trace != null) {
            options.putHeader(HttpForwarding.TRACEPARENT, trace.traceparent());
            if (!trace.tracestate().isEmpty()) {
                options.putHeader(HttpForwarding.TRACESTATE, trace.tracestate());
            } else {
                options.removeHeader(HttpForwarding.TRACESTATE);
            }
        }
        CompletableFuture<Served> answer = new CompletableFuture<>();
        BodyBudget.Reservation bytes = budget.openForReply();
        // the body asked for in the step that receives the response, as HttpOrigin does (vert.x#4705)
        client.request(options)
                .compose(exchange -> exchange.send()
                        .compose(response -> {
                            long received = System.currentTimeMillis();
                            return BoundedBody.read(exchange, response, maxBodyBytes, what -> tooLarge(address, what), bytes)
                                    .map(body -> served(response, body.getBytes(), received, trace != null, address, bytes));
                        }))
                .onComplete(result -> {
                    if (result.succeeded()) {
                        answer.complete(result.result());
                    } else {
                        bytes.release(); // whatever it reserved, unless handed over to an answer
                        answer.completeExceptionally(failure(address, result.cause()));
                    }
                });
        return answer;
    }

    @Override
    public CompletionStage<Void> invalidate(Member target, String key) {
        PeerEndpoints.Endpoint endpoint;
        try {
            endpoint = endpoint(target);
        } catch (NoUsableEndpointException e) {
            return CompletableFuture.failedFuture(e);
        }
        String address = Members.address(target);
        CompletableFuture<Void> done = new CompletableFuture<>();
        client.request(options(endpoint, HttpMethod.DELETE, key))
                .compose(exchange -> exchange.send().compose(response -> response.body().map(body -> {
                    String failure = response.getHeader(HttpForwarding.FAILURE);
                    if (failure != null || response.statusCode() != 204) {
                        throw remoteFailure(failure, address, body.toString(java.nio.charset.StandardCharsets.UTF_8));
                    }
                    return (Void) null;
                })))
                .onComplete(result -> {
                    if (result.succeeded()) {
                        done.complete(null);
                    } else {
                        done.completeExceptionally(failure(address, result.cause()));
                    }
                });
        return done;
    }

    /** Where {@code target} takes forwards over HTTP, if it speaks HTTP caching. */
    private static PeerEndpoints.Endpoint endpoint(Member target) {
        PeerEndpoints.requireHttpCaching(target);
        return PeerEndpoints.of(target, PeerEndpoints.HTTP_PORT);
    }

    /** A request of {@code method} for {@code key} to {@code endpoint}, with this channel's version and the secret. */
    private RequestOptions options(PeerEndpoints.Endpoint endpoint, HttpMethod method, String key) {
        RequestOptions options = new RequestOptions()
                .setMethod(method)
                .setHost(endpoint.host())
                .setPort(endpoint.port())
                .setURI(HttpForwarding.target(key))
                .setTimeout(expiryMillis)
                .putHeader(HttpForwarding.VERSION, THIS_VERSION);
        if (secret != null) {
            options.putHeader(HttpForwarding.SECRET, secret);
        }
        return options;
    }

    private static RuntimeException failure(String address, Throwable cause) {
        return cause instanceof RuntimeException r && !(cause instanceof io.vertx.core.VertxException)
                ? r : new ForwardFailedException("member " + address + " over http: " + cause, cause);
    }

    private static RuntimeException remoteFailure(String code, String address, String message) {
        int parsed;
        try {
            parsed = code == null ? RemoteFailure.FAILED.code() : Integer.parseInt(code.trim());
        } catch (NumberFormatException e) {
            parsed = RemoteFailure.FAILED.code();
        }
        return RemoteFailure.ofCode(parsed).toException(address, message);
    }

    /**
     * An answer larger than this member takes is the owner's fault (it refuses an origin answer
     * past its own limit with {@link RemoteFailure#ORIGIN_ANSWER_TOO_LARGE}), so the forward fails
     * and the next candidate is tried, as the binary transport fails a frame past its limit.
     */
    private ForwardFailedException tooLarge(String address, String what) {
        return new ForwardFailedException("member " + address + " over http answered a forward with a body of " + what
                + "; this member takes at most " + maxBodyBytes + " bytes (" + HttpOrigin.MAX_BODY_BYTES_KEY + ")");
    }

    /**
     * The answer, aged as its owner said, holding the bytes {@code bytes} reserved for its body (handed
     * over last: every failure before it releases them).
     */
    private Served served(HttpClientResponse response, byte[] body, long received, boolean traced, String address,
                          BodyBudget.Reservation bytes) {
        String failure = response.getHeader(HttpForwarding.FAILURE);
        if (failure != null) {
            throw remoteFailure(failure, address, new String(body, java.nio.charset.StandardCharsets.UTF_8));
        }
        String cache = response.getHeader(HttpForwarding.CACHE);
        if (cache == null) {
            throw new ForwardFailedException("member " + address + " answered a forward without " + HttpForwarding.CACHE
                    + " (status " + response.statusCode() + "): not a ketama-router forward endpoint");
        }
        CacheStatus status = CacheStatus.MISS;
        for (CacheStatus s : STATUSES) {
            if (s.name().equals(cache)) {
                status = s;
            }
        }
        long age;
        try {
            String said = response.getHeader(HttpForwarding.AGE);
            age = said == null ? 0 : Math.max(0, Long.parseLong(said.trim()));
        } catch (NumberFormatException e) {
            age = 0;
        }
        OriginAnswer answer = new OriginAnswer(response.statusCode(), HttpForwarding.carried(response.headers(), traced), body,
                received, age);
        return Served.received(answer, status, address, budget, bytes.handOver());
    }

    @Override
    public TransportKind kind() {
        return TransportKind.HTTP;
    }

    @Override
    public void close() {
        client.close();
    }
}
