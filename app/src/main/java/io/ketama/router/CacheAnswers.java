package io.ketama.router;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.Selection;
import io.ketama.router.forwarding.FailureKind;
import io.ketama.router.caching.ByteRange;
import io.ketama.router.caching.CachePolicy;
import io.ketama.router.caching.HttpDates;
import io.ketama.router.caching.CacheTags;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.Failures;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.Served;
import io.netty.buffer.Unpooled;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * The one writer of the proxy's answers on the HTTP route: what a member served (from a store or
 * the origin) presented as a cache presents it, with its {@code X-Ketama-*} headers; what the origin
 * answered a request passed through; the problem document of a request that failed anywhere on the
 * way (a bad key, no ring, a failed chain); and admission's prepared refusal. Every answer to a
 * {@code HEAD} carries the {@code Content-Length} of the body its {@code GET} gets and no body:
 * Vert.x sets none on an answer to a {@code HEAD}.
 *
 * <p>An answer another member sent holds its body's bytes in this member's budget
 * ({@code ketama.router.admission.max-buffered-bytes}) until this member is done with it: they are
 * released once the last byte of the body is written to the connection (Netty keeps the array
 * until then, see {@link #wrapped}), when the connection closes before that, at once for a
 * {@code HEAD} (no body is written) or a client already gone, and on any failure to write. Exactly
 * once: {@link Served#release} gives back only the first time. A local hit holds nothing, and its
 * answer is written with no listener.
 */
@Singleton
class CacheAnswers {

    private static final Logger LOG = Logger.getLogger(CacheAnswers.class);

    static final String OWNER = "X-Ketama-Owner";
    static final String SERVED_BY = "X-Ketama-Served-By";
    static final String RING = "X-Ketama-Ring";
    static final String CACHE = "X-Ketama-Cache";
    static final String FAILOVER = "X-Ketama-Failover";
    /** On an answer a later candidate served because the owner was past its bound (bounded loads): {@code 1}. */
    static final String SPILLED = "X-Ketama-Spilled";

    private static final CharSequence OWNER_HEADER = HttpHeaders.createOptimized(OWNER);
    private static final CharSequence SERVED_BY_HEADER = HttpHeaders.createOptimized(SERVED_BY);
    private static final CharSequence RING_HEADER = HttpHeaders.createOptimized(RING);
    private static final CharSequence CACHE_HEADER = HttpHeaders.createOptimized(CACHE);
    private static final CharSequence FAILOVER_HEADER = HttpHeaders.createOptimized(FAILOVER);
    private static final CharSequence SPILLED_HEADER = HttpHeaders.createOptimized(SPILLED);
    private static final CharSequence ONE = HttpHeaders.createOptimized("1");
    private static final CharSequence RETRY_AFTER = HttpHeaders.createOptimized("Retry-After");
    private static final CharSequence AGE_HEADER = HttpHeaders.createOptimized("Age");
    private static final CharSequence VIA_HEADER = HttpHeaders.createOptimized("Via");
    private static final CharSequence CONTENT_RANGE = HttpHeaders.createOptimized("Content-Range");
    private static final CharSequence PROBLEM = HttpHeaders.createOptimized(Problem.MEDIA_TYPE);
    /** Header values made once: {@code X-Ketama-Ring} by ring version, {@code X-Ketama-Cache} by status. */
    private static final CharSequence[] RING_LABELS = values(RingVersion.values(), v -> v.label().toLowerCase(Locale.ROOT));
    private static final CharSequence[] CACHE_LABELS = values(CacheStatus.values(), CacheStatus::name);

    private final ObjectMapper json;
    private final RedirectLocations redirects;
    /** This service's {@code Via} line: {@code 1.1 <pseudonym>}. */
    private final CharSequence via;
    /** Whether the purge tags ({@code Surrogate-Key}, {@code Cache-Tag}) reach clients ({@code ketama.router.purge.expose-tags}). */
    private final boolean exposeTags;

    @jakarta.inject.Inject
    CacheAnswers(ObjectMapper json, RedirectLocations redirects, RouterSettings settings) {
        this(json, redirects, settings.proxy().via(), settings.purge().exposeTags());
    }

    CacheAnswers(ObjectMapper json, RedirectLocations redirects, String via) {
        this(json, redirects, via, false);
    }

    CacheAnswers(ObjectMapper json, RedirectLocations redirects, String via, boolean exposeTags) {
        this.json = json;
        this.redirects = redirects;
        this.via = HttpHeaders.createOptimized(via);
        this.exposeTags = exposeTags;
    }

    private static <E extends Enum<E>> CharSequence[] values(E[] constants, Function<E, String> text) {
        CharSequence[] values = new CharSequence[constants.length];
        for (E e : constants) {
            values[e.ordinal()] = HttpHeaders.createOptimized(text.apply(e));
        }
        return values;
    }

    /** Whether {@code name} is a purge tag field, for this cache and the CDNs that read it, not for clients. */
    private static boolean isTagField(String name) {
        return HttpFields.sameName(name, CacheTags.SURROGATE_KEY) || HttpFields.sameName(name, CacheTags.CACHE_TAG);
    }

    /** The {@code X-Ketama-Ring} value of {@code version}, made once. */
    static CharSequence ringLabel(RingVersion version) {
        return RING_LABELS[version.ordinal()];
    }

    /**
     * Writes what {@code servedBy} served for the key {@code owner} owns, as the answer to
     * {@code proxied} ({@link #write(HttpServerRequest, ProxiedRequest, Served, boolean, AnswerFields)});
     * releases what the answer holds once written, or at once when nothing will be written.
     */
    void answer(HttpServerRequest request, ProxiedRequest proxied, CharSequence owner, Selection selection, Served served,
                CharSequence servedBy, int failures, boolean spilled) {
        try {
            write(request, proxied, served, true, headers -> {
                headers.add(OWNER_HEADER, owner)
                        .add(SERVED_BY_HEADER, servedBy)
                        .add(RING_HEADER, RING_LABELS[selection.version().ordinal()])
                        .add(CACHE_HEADER, CACHE_LABELS[served.cache().ordinal()]);
                if (failures > 0) {
                    headers.add(FAILOVER_HEADER, Integer.toString(failures));
                }
                if (spilled) {
                    headers.add(SPILLED_HEADER, ONE);
                }
            });
        } catch (RuntimeException e) {
            served.release(); // nothing will be written now (release after a write began does nothing twice)
            throw e;
        }
    }

    /** Writes the origin's answer to a request passed through ({@link CacheStatus#PASS}): as it is, with who passed it. */
    void passed(HttpServerRequest request, ProxiedRequest proxied, Served served) {
        write(request, proxied, served, false, headers -> headers.add(SERVED_BY_HEADER, served.servedBy())
                .add(CACHE_HEADER, CACHE_LABELS[served.cache().ordinal()]));
    }

    /**
     * Passes an interim answer the origin sent before its final one ({@code 103 Early Hints}, RFC 8297)
     * on to the client, with its fields, while nothing of the final answer is written yet.
     */
    void interim(HttpServerRequest request, HttpFields hints) {
        HttpServerResponse response = request.response();
        if (response.closed() || response.ended() || response.headWritten()) {
            return;
        }
        MultiMap fields = MultiMap.caseInsensitiveMultiMap();
        for (int i = 0; i < hints.size(); i++) {
            fields.add(hints.name(i), hints.value(i));
        }
        response.writeEarlyHints(fields);
    }

    /** What a writer adds of this service's own ({@code X-Ketama-*}). */
    @FunctionalInterface
    interface AnswerFields {
        void add(MultiMap headers);
    }

    /**
     * Writes {@code served}'s answer as a cache presents it:
     * <ul>
     *   <li>its fields as the origin sent them, less {@code Content-Length} (the length is the body's
     *       sent, stated here) and, for an answer from a store, {@code Age}, made anew from its current age
     *       (RFC 9111 §5.1); a {@code Date} where it has none (RFC 9110 §6.6.1); this service's {@code Via}
     *       line (RFC 9110 §7.6.3); a redirect's {@code Location} into the origin rewritten onto the mount;</li>
     *   <li>where {@code evaluate} (a {@code GET} or {@code HEAD} the cache served): the request's
     *       preconditions against it (RFC 9110 §13.2.2: a {@code 304} with the fields §15.4.5 names, or a
     *       {@code 412}), then one byte range of a {@code 200} (RFC 9110 §14: a {@code 206} with
     *       {@code Content-Range}, or a {@code 416});</li>
     *   <li>to a {@code HEAD}, the length of the body its {@code GET} gets, and no body; a {@code 204},
     *       {@code 304} or {@code 412}, no body.</li>
     * </ul>
     */
    private void write(HttpServerRequest request, ProxiedRequest proxied, Served served, boolean evaluate, AnswerFields own) {
        HttpServerResponse response = request.response();
        if (response.closed() || response.ended()) {
            served.release(); // the client left: nothing of the answer will be written
            return;
        }
        OriginAnswer answer = served.answer();
        boolean head = request.method() == HttpMethod.HEAD;
        int status = answer.status();
        ByteRange range = null;
        if (evaluate) {
            status = CachePolicy.preconditions(proxied.request(), answer);
            if (status == 200 && !head) {
                range = CachePolicy.range(proxied.request(), answer);
            }
        }
        boolean stored = fromStore(served.cache());
        HttpFields fields = status == 304 ? CachePolicy.notModifiedFields(answer) : answer.headers();
        MultiMap headers = response.headers();
        boolean dated = false;
        boolean redirect = OriginAnswer.isRedirect(answer.status());
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.name(i);
            if (HttpFields.sameName(name, "Content-Length") || (stored && HttpFields.sameName(name, "Age"))
                    || (!exposeTags && isTagField(name))) {
                continue;
            }
            String value = fields.value(i);
            if (redirect && HttpFields.sameName(name, "Location")) {
                value = redirects.forClient(value, proxied.mount());
            } else if (!dated && HttpFields.sameName(name, "Date")) {
                dated = true;
            }
            headers.add(name, value);
        }
        if (!dated) {
            headers.add(HttpHeaders.DATE, HttpDates.format(System.currentTimeMillis()));
        }
        if (stored) {
            headers.add(AGE_HEADER, CachePolicy.ageValue(answer.ageMillis(System.currentTimeMillis())));
        }
        headers.add(VIA_HEADER, via);
        own.add(headers);
        byte[] body = answer.body();
        int from = 0;
        int length = body.length;
        if (range != null && range.isUnsatisfiable()) {
            status = 416;
            headers.add(CONTENT_RANGE, range.contentRange());
            length = 0;
        } else if (range != null) {
            status = 206;
            headers.add(CONTENT_RANGE, range.contentRange());
            from = (int) range.first();
            length = (int) range.length();
        }
        response.setStatusCode(status);
        if (status == 204 || status == 304 || (status >= 100 && status < 200)) {
            served.release();
            response.end(); // no body and no length (RFC 9110 §8.6, §15.3.5, §15.4.5)
        } else if (status == 412 || head) {
            served.release(); // no body is sent
            endHead(response, status == 412 ? 0 : length);
        } else if (served.holdsBytes()) {
            // held until written: the future completes once Netty has written the last byte, or
            // fails when the connection closes first
            response.end(wrapped(body, from, length)).onComplete(written -> served.release());
        } else {
            response.end(wrapped(body, from, length));
        }
    }

    /** Whether an answer of {@code status} came from a store (this member's, another's, or a near copy): it gets an {@code Age}. */
    private static boolean fromStore(CacheStatus status) {
        return status == CacheStatus.HIT || status == CacheStatus.STALE || status == CacheStatus.REVALIDATED
                || status == CacheStatus.NEAR;
    }

    /**
     * Writes the problem of a request that failed: {@code failure} as the problem it is, a failed
     * chain's failure as its problem ({@link #problemOf}), anything else as an internal error, logged.
     */
    void problem(RoutingContext ctx, Throwable failure) {
        HttpServerResponse response = ctx.response();
        if (response.closed() || response.ended()) {
            return;
        }
        ProblemException problem = problemOf(failure);
        if (problem == null) {
            LOG.error("request failed unexpectedly", failure);
            problem = new ProblemException(ProblemType.INTERNAL, ProblemMappers.UNEXPECTED);
        }
        byte[] body;
        try {
            body = json.writeValueAsBytes(new Problem(problem.kind(), problem.getMessage(),
                    ProblemMappers.instance(ctx.request()), problem.extensions()));
        } catch (JsonProcessingException e) {
            LOG.error("a problem document cannot be written", e);
            response.setStatusCode(ProblemType.INTERNAL.status()).end();
            return;
        }
        response.headers().add(HttpHeaders.CONTENT_TYPE, PROBLEM);
        if (problem.retryAfterSeconds() != null) {
            response.headers().add(RETRY_AFTER, problem.retryAfterSeconds().toString());
        }
        response.setStatusCode(problem.kind().status());
        if (ctx.request().method() == HttpMethod.HEAD) {
            endHead(response, body.length);
        } else {
            response.end(Buffer.buffer(body));
        }
    }

    /**
     * The problem a request that failed with {@code failure} is answered with; null when the
     * failure is unexpected (a defect: answered as an internal error).
     */
    static ProblemException problemOf(Throwable failure) {
        Throwable cause = Failures.cause(failure);
        if (cause instanceof ProblemException problem) {
            return problem;
        }
        return switch (FailureKind.of(cause)) {
            case ORIGIN_ANSWER_TOO_LARGE -> new ProblemException(ProblemType.ORIGIN_ANSWER_TOO_LARGE, "the origin's answer "
                    + "is larger than this service takes (" + RouterSettings.MAX_BODY_BYTES + "), so it was not served or "
                    + "cached: " + cause.getMessage());
            case ORIGIN_UNAVAILABLE -> new ProblemException(ProblemType.ORIGIN_UNAVAILABLE, cause.getMessage());
            case NOT_CACHED -> new ProblemException(ProblemType.NOT_CACHED, cause.getMessage());
            case OVERLOADED, NO_ROOM_FOR_REPLY ->
                    new ProblemException(ProblemType.OVERLOADED, cause.getMessage() + "; retry shortly", Map.of(), 1);
            // what ends a chain is one of the above; anything else reaching the client is a defect
            default -> null;
        };
    }

    /** A problem written the same way every time, its document made once (admission's refusal). */
    record Prepared(int status, Buffer body, String length, Integer retryAfterSeconds) {
    }

    /** {@code problem} made into its document once, to be written by {@link #write(RoutingContext, Prepared)}. */
    Prepared prepare(ProblemException problem) {
        try {
            Buffer body = Buffer.buffer(json.writeValueAsBytes(new Problem(problem.kind(), problem.getMessage(), null,
                    problem.extensions())));
            return new Prepared(problem.kind().status(), body, Integer.toString(body.length()), problem.retryAfterSeconds());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the " + problem.kind().uri() + " problem document cannot be written", e);
        }
    }

    /** Writes a prepared problem, with its length given outright (Vert.x sets none on the answer to a {@code HEAD}). */
    void write(RoutingContext ctx, Prepared prepared) {
        HttpServerResponse response = ctx.response().setStatusCode(prepared.status())
                .putHeader(HttpHeaders.CONTENT_TYPE, PROBLEM)
                .putHeader(HttpHeaders.CONTENT_LENGTH, prepared.length());
        if (prepared.retryAfterSeconds() != null) {
            response.putHeader(RETRY_AFTER, prepared.retryAfterSeconds().toString());
        }
        response.end(prepared.body());
    }

    /** Ends the answer to a {@code HEAD}: the length of the body its {@code GET} gets, and no body. */
    private static void endHead(HttpServerResponse response, int length) {
        response.headers().add(HttpHeaders.CONTENT_LENGTH, Integer.toString(length));
        response.end();
    }

    /**
     * {@code length} bytes of {@code body} from {@code from} as a buffer over the same array:
     * {@link Buffer#buffer(byte[])} would copy it into a new heap buffer on every answer, which Netty
     * then copies again into a direct buffer to write it. Vert.x hands Netty an unreleasable slice of
     * a buffer it did not allocate, so the array is only read, never released or written.
     */
    private static Buffer wrapped(byte[] body, int from, int length) {
        return Buffer.buffer(Unpooled.wrappedBuffer(body, from, length));
    }
}
