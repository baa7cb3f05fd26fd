package io.ketama.router;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.Selection;
import io.ketama.router.forwarding.FailureKind;
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
 * The one writer of {@code /cache/} answers on the HTTP route: the content a member served with
 * its {@code X-Ketama-*} headers, the problem document of a request that failed anywhere on the way
 * (a bad key, no ring, a failed chain), and admission's prepared refusal. Every answer to a
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
    private static final CharSequence PROBLEM = HttpHeaders.createOptimized(Problem.MEDIA_TYPE);
    /** Header values made once: {@code X-Ketama-Ring} by ring version, {@code X-Ketama-Cache} by status. */
    private static final CharSequence[] RING_LABELS = values(RingVersion.values(), v -> v.label().toLowerCase(Locale.ROOT));
    private static final CharSequence[] CACHE_LABELS = values(CacheStatus.values(), CacheStatus::name);

    private final ObjectMapper json;
    private final RedirectLocations redirects;

    CacheAnswers(ObjectMapper json, RedirectLocations redirects) {
        this.json = json;
        this.redirects = redirects;
    }

    private static <E extends Enum<E>> CharSequence[] values(E[] constants, Function<E, String> text) {
        CharSequence[] values = new CharSequence[constants.length];
        for (E e : constants) {
            values[e.ordinal()] = HttpHeaders.createOptimized(text.apply(e));
        }
        return values;
    }

    /** The {@code X-Ketama-Ring} value of {@code version}, made once. */
    static CharSequence ringLabel(RingVersion version) {
        return RING_LABELS[version.ordinal()];
    }

    /**
     * Writes what {@code servedBy} served for the key {@code owner} owns; releases what the answer
     * holds once written, or at once when nothing will be written.
     */
    void answer(HttpServerRequest request, CharSequence owner, Selection selection, Served served, CharSequence servedBy,
                int failures, boolean spilled) {
        try {
            write(request, owner, selection, served, servedBy, failures, spilled);
        } catch (RuntimeException e) {
            served.release(); // nothing will be written now (release after a write began does nothing twice)
            throw e;
        }
    }

    private void write(HttpServerRequest request, CharSequence owner, Selection selection, Served served,
                       CharSequence servedBy, int failures, boolean spilled) {
        HttpServerResponse response = request.response();
        if (response.closed() || response.ended()) {
            served.release(); // the client left: nothing of the answer will be written
            return;
        }
        OriginAnswer answer = served.answer();
        MultiMap headers = response.headers();
        headers.add(HttpHeaders.CONTENT_TYPE, answer.contentType())
                .add(OWNER_HEADER, owner)
                .add(SERVED_BY_HEADER, servedBy)
                .add(RING_HEADER, RING_LABELS[selection.version().ordinal()])
                .add(CACHE_HEADER, CACHE_LABELS[served.cache().ordinal()]);
        if (failures > 0) {
            headers.add(FAILOVER_HEADER, Integer.toString(failures));
        }
        if (spilled) {
            headers.add(SPILLED_HEADER, ONE);
        }
        if (answer.location() != null) {
            headers.add(HttpHeaders.LOCATION, redirects.forClient(answer.location()));
        }
        response.setStatusCode(answer.status());
        if (request.method() == HttpMethod.HEAD) {
            endHead(response, answer.body().length);
            served.release(); // no body is sent
        } else if (served.holdsBytes()) {
            // held until written: the future completes once Netty has written the last byte, or
            // fails when the connection closes first
            response.end(wrapped(answer.body())).onComplete(written -> served.release());
        } else {
            response.end(wrapped(answer.body()));
        }
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
     * {@code body} as a buffer over the same array: {@link Buffer#buffer(byte[])} would copy it
     * into a new heap buffer on every answer, which Netty then copies again into a direct buffer
     * to write it. Vert.x hands Netty an unreleasable slice of a buffer it did not allocate, so
     * the array is only read, never released or written.
     */
    private static Buffer wrapped(byte[] body) {
        return Buffer.buffer(Unpooled.wrappedBuffer(body));
    }
}
