package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import io.ketama.router.caching.CachePolicy;
import io.ketama.router.caching.HttpFields;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;

/**
 * An HTTP origin: a request for target {@code /t} goes to {@code <base-url>/t} with its method,
 * fields and body, over a pool of keep-alive connections (Vert.x, non-blocking: the answer arrives
 * on an event loop), redirects not followed, so the origin's answer passes through as it is: its
 * status, its end-to-end fields and its body. A body larger than {@code maxBodyBytes} is not taken
 * ({@link OriginAnswerTooLargeException}): refused from its {@code Content-Length} before a byte of
 * it is read, or, without one, as soon as more arrived; the connection is then closed.
 *
 * <p>Every fetch takes the bytes of its body from the member's {@link BodyBudget} before it holds
 * them (a declared length whole and at once, else each chunk as it arrives) and gives them back when
 * it ends, whichever way; one that finds no room fails with {@link OverloadedException}, its
 * connection closed, its body not read further.
 */
public final class HttpOrigin implements Origin {

    /**
     * The key that bounds every body a member takes, from the origin or from another member: named
     * once here, for the settings and for every refusal that tells an operator which key to raise.
     */
    public static final String MAX_BODY_BYTES_KEY = "ketama.router.origin.max-body-bytes";

    /** The largest body taken where none is given: {@value #MAX_BODY_BYTES_KEY}'s default, 16 MiB. */
    public static final int DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

    /** The key that bounds the header block of an origin's answer. */
    public static final String MAX_HEADER_BYTES_KEY = "ketama.router.origin.max-header-bytes";
    /** {@value #MAX_HEADER_BYTES_KEY}'s default: 16 KiB, twice nginx's default proxy buffer. */
    public static final int DEFAULT_MAX_HEADER_BYTES = 16 * 1024;
    /** The {@code Via} line a member adds where none is configured. */
    public static final String DEFAULT_VIA = "1.1 ketama-router";
    private static final String VIA = "Via";

    private final Vertx vertx;
    private final int maxHeaderBytes;
    private final String via;
    private final String base;
    private final String basePath;
    private final Duration timeout;
    private final int maxBodyBytes;
    private final BodyBudget budget;
    private final HttpClient client;
    private final RequestOptions template;

    /**
     * The configured values this origin is made from, checked: the rule start-up applies
     * ({@code ketama.router.origin.*}) and the constructor's.
     *
     * @return {@code baseUrl} as a URI
     * @throws IllegalArgumentException when {@code baseUrl} is not an absolute http(s) URL with a host
     *                                  and without query or fragment, or a number is out of range
     */
    public static URI check(String baseUrl, Duration timeout, int maxConnections) {
        URI uri;
        try {
            uri = URI.create(baseUrl.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("origin base URL '" + baseUrl + "' is not a URL: " + e.getMessage(), e);
        }
        boolean https = "https".equalsIgnoreCase(uri.getScheme());
        if (!(https || "http".equalsIgnoreCase(uri.getScheme()))
                || uri.getHost() == null || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("origin base URL '" + baseUrl
                    + "' must be an absolute http:// or https:// URL with a host and no query or fragment");
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("origin timeout must be > 0, was " + timeout);
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("origin max connections must be >= 1, was " + maxConnections);
        }
        return uri;
    }

    /**
     * @param baseUrl        an absolute http or https URL; a trailing slash is ignored
     * @param timeout        how long to wait for the whole answer
     * @param maxConnections the most connections kept open to the origin, at least 1
     * @throws IllegalArgumentException when {@code baseUrl} is not an absolute http(s) URL without
     *                                  query or fragment, or a number is out of range
     */
    public HttpOrigin(Vertx vertx, String baseUrl, Duration timeout, int maxConnections) {
        this(vertx, baseUrl, timeout, maxConnections, DEFAULT_MAX_BODY_BYTES);
    }

    /**
     * As {@link #HttpOrigin(Vertx, String, Duration, int)}, taking bodies of at most
     * {@code maxBodyBytes} (at least 1), with a budget of its own of the default size
     * ({@link BodyBudget#defaultBytes}).
     */
    public HttpOrigin(Vertx vertx, String baseUrl, Duration timeout, int maxConnections, int maxBodyBytes) {
        this(vertx, baseUrl, timeout, maxConnections, maxBodyBytes, new BodyBudget(BodyBudget.defaultBytes(maxBodyBytes)));
    }

    /**
     * As {@link #HttpOrigin(Vertx, String, Duration, int, int)}, its bodies held within
     * {@code budget}, which other fetches of the member may share.
     *
     * @throws IllegalArgumentException also when {@code budget} cannot hold one body of
     *                                  {@code maxBodyBytes}
     */
    public HttpOrigin(Vertx vertx, String baseUrl, Duration timeout, int maxConnections, int maxBodyBytes, BodyBudget budget) {
        this(vertx, baseUrl, timeout, maxConnections, maxBodyBytes, budget, DEFAULT_MAX_HEADER_BYTES, DEFAULT_VIA);
    }

    /**
     * As {@link #HttpOrigin(Vertx, String, Duration, int, int, BodyBudget)}, reading answers' header
     * blocks of at most {@code maxHeaderBytes} (larger: a 502 saying so) and naming itself {@code via}
     * in the {@code Via} line of every request (RFC 9110 §7.6.3: {@code 1.1 <pseudonym>}).
     *
     * @throws IllegalArgumentException also when {@code maxHeaderBytes} is outside 1 KiB to 1 MiB
     */
    public HttpOrigin(Vertx vertx, String baseUrl, Duration timeout, int maxConnections, int maxBodyBytes, BodyBudget budget,
                      int maxHeaderBytes, String via) {
        Objects.requireNonNull(vertx, "vertx");
        Objects.requireNonNull(via, "via");
        checkMaxHeaderBytes(maxHeaderBytes);
        this.maxHeaderBytes = maxHeaderBytes;
        this.via = via;
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(budget, "budget");
        URI uri = check(baseUrl, timeout, maxConnections);
        boolean https = "https".equalsIgnoreCase(uri.getScheme());
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("origin max body bytes must be >= 1, was " + maxBodyBytes);
        }
        if (budget.maxBytes() < maxBodyBytes) {
            throw new IllegalArgumentException("origin max buffered bytes (" + budget.maxBytes() + ") must be at least its "
                    + "max body bytes (" + maxBodyBytes + "), or an answer of that size could never be taken");
        }
        this.maxBodyBytes = maxBodyBytes;
        this.budget = budget;
        this.vertx = vertx;
        String text = uri.toString();
        this.base = text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        this.basePath = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        this.timeout = timeout;
        int port = uri.getPort() > 0 ? uri.getPort() : https ? 443 : 80;
        String origin = this.base;
        this.client = vertx.httpClientBuilder()
                .with(new HttpClientOptions()
                        .setSsl(https)
                        .setKeepAlive(true)
                        .setTcpNoDelay(true)
                        .setMaxHeaderSize(maxHeaderBytes)
                        .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis())))
                .with(new PoolOptions().setHttp1MaxSize(maxConnections))
                .withConnectHandler(connection -> SurplusBytesGuard.install(connection, origin))
                .build();
        this.template = new RequestOptions()
                .setMethod(HttpMethod.GET)
                .setHost(uri.getHost())
                .setPort(port)
                .setSsl(https)
                .setFollowRedirects(false)
                .setTimeout(timeout.toMillis());
    }

    /** The request target sent for {@code target} (below the base URL, starting with {@code /}). */
    String target(String target) {
        return basePath + RequestTargets.escape(target);
    }

    /**
     * Sends {@code request} as it is: its method and fields, its body where it has one, and a
     * {@code Via} line naming this service (RFC 9110 §7.6.3: a gateway appends one to every request it
     * forwards). The answer's fields are kept as the origin sent them less the hop-by-hop ones; its
     * age is the corrected initial age of RFC 9111 §4.2.3, from its {@code Age} and {@code Date} and
     * the time the exchange took.
     */
    @Override
    public CompletionStage<OriginAnswer> fetch(OriginRequest request) {
        RequestOptions options = new RequestOptions(template).setMethod(HttpMethod.valueOf(request.method()))
                .setURI(target(request.target()));
        HttpFields fields = request.headers();
        for (int i = 0; i < fields.size(); i++) {
            options.addHeader(fields.name(i), fields.value(i));
        }
        options.addHeader(VIA, via);
        byte[] sent = request.body();
        // The body is asked for in the step that receives the response: a later step of the outer
        // chain may run after the body has gone by when the fetch began off the event loops (a
        // Hazelcast thread), and the answer would be an empty 200 (eclipse-vertx/vert.x#4705).
        long start = System.nanoTime();
        long requestTime = System.currentTimeMillis();
        return client.request(options)
                .compose(exchange -> {
                    // The request's own timeout is an idle timeout, which every byte that arrives
                    // restarts: an origin that trickles its body would hold this fetch (and every
                    // request waiting for it) as long as it likes. The whole answer has a deadline.
                    Promise<OriginAnswer> answer = Promise.promise();
                    // every way this fetch ends completes the answer, once; its bytes go back then,
                    // before any caller sees the outcome (handlers run in the order registered)
                    BodyBudget.Reservation bytes = budget.open();
                    answer.future().onComplete(done -> bytes.release());
                    long left = timeout.toMillis() - (System.nanoTime() - start) / 1_000_000;
                    if (request.interim() != null) {
                        // RFC 8297: passed on as they come, never stored (RFC 9111 §3: only a final answer is)
                        exchange.earlyHintsHandler(hints -> request.interim().accept(fields(hints)));
                    }
                    long deadline = vertx.setTimer(Math.max(1, left), id -> {
                        if (answer.tryFail(new TimeoutException("no whole answer within " + timeout.toMillis() + " ms"))) {
                            exchange.reset(); // frees the connection the trickle holds
                        }
                    });
                    (sent.length == 0 ? exchange.send() : exchange.send(Buffer.buffer(sent)))
                            .compose(response -> {
                                String unreadable = unreadable(response);
                                if (unreadable != null) {
                                    // the rest of this answer would be read as the next one's on a kept-alive connection
                                    exchange.connection().close();
                                    return io.vertx.core.Future.failedFuture(new OriginAnswerUnreadableException(
                                            "origin " + base + " answered " + unreadable + "; the connection is closed"));
                                }
                                long responseTime = System.currentTimeMillis();
                                HttpFields received = fields(response.headers());
                                return BoundedBody.read(exchange, response, maxBodyBytes, this::tooLarge, bytes)
                                        .map(body -> new OriginAnswer(response.statusCode(), received, body.getBytes(), responseTime,
                                                CachePolicy.initialAgeMillis(received, requestTime, responseTime)));
                            }).onComplete(result -> {
                                vertx.cancelTimer(deadline);
                                if (result.succeeded()) {
                                    answer.tryComplete(result.result());
                                } else {
                                    answer.tryFail(result.cause());
                                }
                            });
                    return answer.future();
                })
                .<OriginAnswer>transform(result -> result.succeeded()
                        ? io.vertx.core.Future.succeededFuture(result.result())
                        : io.vertx.core.Future.failedFuture(unavailable(result.cause())))
                .toCompletionStage();
    }

    /**
     * Why {@code response} cannot be passed on as the final answer, or null. Vert.x reads only 100
     * and 103 as interim: a 101 nobody asked for (or a 102 where {@link SurplusBytesGuard} is not
     * there to leave it out) ends its exchange with the real answer still to come. A transfer coding
     * other than chunked has no length to read by.
     */
    static String unreadable(HttpClientResponse response) {
        if (response.statusCode() < 200) {
            return "an interim " + response.statusCode() + " where its final answer belongs (only 100 Continue and "
                    + "103 Early Hints are read as interim answers)";
        }
        String codings = response.getHeader(HttpHeaders.TRANSFER_ENCODING);
        if (codings != null && !finalCodingIsChunked(codings)) {
            return "with Transfer-Encoding: " + codings + ", a body framed by a transfer coding other than chunked, "
                    + "which this member does not decode";
        }
        return null;
    }

    private static boolean finalCodingIsChunked(String codings) {
        int comma = codings.lastIndexOf(',');
        return codings.substring(comma + 1).trim().equalsIgnoreCase("chunked");
    }

    /** An answer's end-to-end fields as Vert.x read them, in order. */
    private static HttpFields fields(MultiMap headers) {
        HttpFields.Builder b = HttpFields.builder(headers.size());
        for (Map.Entry<String, String> field : headers) {
            b.add(field.getKey(), field.getValue());
        }
        return b.build().endToEnd();
    }

    private OriginAnswerTooLargeException tooLarge(String what) {
        return new OriginAnswerTooLargeException("origin " + base + " answered with a body of " + what
                + "; this member takes at most " + maxBodyBytes + " bytes");
    }

    private RuntimeException unavailable(Throwable cause) {
        if (cause instanceof OriginAnswerTooLargeException || cause instanceof OriginAnswerUnreadableException) {
            return (RuntimeException) cause;
        }
        if (cause instanceof OverloadedException overloaded) {
            return overloaded; // no room in the budget: this member's limit, not the origin's failure
        }
        if (cause instanceof TimeoutException) {
            return new OriginUnavailableException("origin " + base + " did not answer within " + timeout.toMillis() + " ms", cause);
        }
        if (cause instanceof io.netty.handler.codec.TooLongFrameException) {
            return new OriginUnavailableException("origin " + base + " answered with a header block larger than this member "
                    + "reads (" + maxHeaderBytes + " bytes, " + MAX_HEADER_BYTES_KEY + "): " + cause.getMessage(), cause);
        }
        return new OriginUnavailableException("origin " + base + " failed: " + cause, cause);
    }

    /** @throws IllegalArgumentException when {@code maxHeaderBytes} is outside 1 KiB to 1 MiB */
    public static void checkMaxHeaderBytes(int maxHeaderBytes) {
        if (maxHeaderBytes < 1024 || maxHeaderBytes > 1024 * 1024) {
            throw new IllegalArgumentException("must be 1K to 1M bytes, e.g. 16K; was " + maxHeaderBytes);
        }
    }

    /** Closes the pooled connections. */
    public void close() {
        client.close();
    }

    @Override
    public String toString() {
        return "HttpOrigin[" + base + ", timeout=" + timeout.toMillis() + "ms, max body " + maxBodyBytes + " bytes, "
                + budget + "]";
    }
}
