package io.ketama.router;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.Selection;
import io.ketama.router.forwarding.FailoverChain;
import io.ketama.router.hot.HotKeys;
import io.ketama.router.hot.NearCache;
import io.ketama.router.load.OwnerLoad;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.Failures;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.OriginAnswer;
import io.ketama.router.serving.Served;
import io.netty.buffer.Unpooled;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Serves {@code GET} and {@code HEAD /cache/<key>} on the HTTP route itself, ahead of Quarkus
 * REST: a local hit at once, any other key through the {@link FailoverChain}, and it writes the
 * answer with Vert.x. Building a JAX-RS response for each answer (a case-insensitive header map, a
 * writer lookup, the resource's handler chain) took a third of a local hit's CPU time. A
 * {@code GET} it cannot route (a bad key or features header, rings not ready, no member with the
 * features) goes on untouched to {@link CacheResource}, which answers it with its problem
 * document. So every answer is the one the resource gives: status, headers, body, meters, and the
 * problem documents of a chain that failed.
 *
 * <p>A {@code HEAD} is served as its {@code GET} is (the key fetched and cached where the
 * {@code GET} would fetch it) and answered with the same status and headers, its
 * {@code Content-Length} that of the body the {@code GET} sends, and no body. Its problems are
 * written here too: Vert.x sets no {@code Content-Length} on an answer to a {@code HEAD}, and
 * Quarkus REST's implicit {@code HEAD} drops it with the body.
 *
 * <p>An answer another member sent holds its body's bytes in this member's budget
 * ({@code ketama.router.admission.max-buffered-bytes}) until this member is done with it: they are
 * released once the last byte of the body is written to the connection (Netty keeps the array
 * until then, see {@link #wrapped}), when the connection closes before that, at once for a
 * {@code HEAD} (no body is written) or a client already gone, and on any failure to write. Exactly
 * once: {@link Served#release} gives back only the first time. A local hit holds nothing, and its
 * answer is written as before, with no listener.
 *
 * <p>Hot keys (app/README, "Hot keys"): every key routed here is counted in {@link HotKeys}; a key
 * this member owns is admitted by its {@link OwnerLoad} before its local hit (past its bound it goes
 * to the key's next candidate); a key another member owns is answered from its near copy
 * ({@link NearCache}, {@code X-Ketama-Cache: NEAR}) while one is held and the request requires no
 * features, and a forwarded answer is offered to the near cache (kept only for a hot key).
 */
@Singleton
class CacheRoute {

    private static final Logger LOG = Logger.getLogger(CacheRoute.class);

    /** After admission, before Quarkus REST's own route. */
    static final int ORDER = CacheAdmission.ORDER + 1;

    private static final CharSequence OWNER = HttpHeaders.createOptimized(CacheResource.OWNER);
    private static final CharSequence SERVED_BY = HttpHeaders.createOptimized(CacheResource.SERVED_BY);
    private static final CharSequence RING = HttpHeaders.createOptimized(CacheResource.RING);
    private static final CharSequence CACHE = HttpHeaders.createOptimized(CacheResource.CACHE);
    private static final CharSequence FAILOVER = HttpHeaders.createOptimized(CacheResource.FAILOVER);
    private static final CharSequence SPILLED = HttpHeaders.createOptimized(CacheResource.SPILLED);
    private static final CharSequence ONE = HttpHeaders.createOptimized("1");
    private static final CharSequence RETRY_AFTER = HttpHeaders.createOptimized("Retry-After");
    private static final CharSequence PROBLEM = HttpHeaders.createOptimized(Problem.MEDIA_TYPE);
    private static final CharSequence CONTENT_LENGTH = HttpHeaders.CONTENT_LENGTH;
    private static final CharSequence LOCATION = HttpHeaders.LOCATION;
    /** Header values made once: {@code X-Ketama-Ring} by ring version, {@code X-Ketama-Cache} by status. */
    private static final CharSequence[] RING_LABELS = values(RingVersion.values(), v -> v.label().toLowerCase(Locale.ROOT));
    private static final CharSequence[] CACHE_LABELS = values(CacheStatus.values(), CacheStatus::name);

    private final OwnerLookup owners;
    private final RouterMetrics metrics;
    private final ObjectMapper json;
    private final KeyServer keyServer;
    private final FailoverChain chain;
    private final CharSequence localAddress;
    private final RedirectLocations redirects;
    /** This member's load as a key's server: a key it owns is admitted here before its local hit. */
    private final OwnerLoad load;
    private final HotKeys hot;
    /** Null: no near copies. */
    private final NearCache near;
    private final io.ketama.router.tracing.Tracing tracing;

    CacheRoute(OwnerLookup owners, ServingParts parts, RouterMetrics metrics, ObjectMapper json) {
        this.owners = owners;
        this.metrics = metrics;
        this.json = json;
        this.keyServer = parts.keyServer();
        this.chain = parts.chain();
        this.localAddress = HttpHeaders.createOptimized(keyServer.memberAddress());
        this.redirects = parts.redirects();
        this.load = parts.ownerLoad();
        this.hot = parts.hotKeys();
        this.near = parts.nearCache();
        this.tracing = parts.tracing();
    }

    private static <E extends Enum<E>> CharSequence[] values(E[] constants, Function<E, String> text) {
        CharSequence[] values = new CharSequence[constants.length];
        for (E e : constants) {
            values[e.ordinal()] = HttpHeaders.createOptimized(text.apply(e));
        }
        return values;
    }

    void register(@Observes Router router) {
        router.get(CacheResource.PREFIX + "*").order(ORDER).handler(this::serve);
        router.head(CacheResource.PREFIX + "*").order(ORDER).handler(this::serve);
    }

    private void serve(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        RawKey key;
        Selection selection;
        boolean plain; // requires no features: a near copy may answer it
        try {
            key = RawKey.fromRequestTarget(request.uri(), CacheResource.PREFIX);
            List<String> featureHeaders = request.headers().getAll(FeaturesHeader.NAME);
            plain = featureHeaders.isEmpty();
            selection = owners.select(key, featureHeaders);
        } catch (RuntimeException e) {
            if (request.method() == HttpMethod.HEAD) {
                HttpMetricsUri.name(ctx, HttpMetricsUri.CACHE);
                problem(ctx, e);
            } else {
                ctx.next(); // nothing done yet: the resource meets the same problem and answers it
            }
            return;
        }
        HttpMetricsUri.name(ctx, HttpMetricsUri.CACHE);
        String text = key.text();
        hot.record(text);
        io.ketama.router.tracing.RouteSpan span = tracing.entry(text); // null unless tracing is on
        if (span != null) {
            span.route(RING_LABELS[selection.version().ordinal()].toString(),
                    selection.owner().localMember() ? keyServer.memberAddress() : Members.address(selection.owner()));
        }
        boolean ownerSpilled = false;
        if (selection.owner().localMember()) { // not by UUID: a split-brain merge gives this member a new one
            if (load.admit(text)) { // counted as served here, or refused past the bound
                Served hit = keyServer.hit(text);
                if (hit != null) {
                    metrics.served(hit.cache(), false, 0);
                    if (span != null) {
                        ended(span, hit, 0, false);
                    }
                    answer(request, localAddress, selection, hit, localAddress, 0, false);
                    return;
                }
            } else {
                ownerSpilled = true;
            }
        } else if (near != null && plain) {
            OriginAnswer copy = near.get(text);
            if (copy != null) {
                metrics.served(CacheStatus.NEAR, false, 0);
                if (span != null) {
                    span.cache(CacheStatus.NEAR);
                    span.end();
                }
                answer(request, Members.address(selection.owner()), selection,
                        new Served(copy, CacheStatus.NEAR, keyServer.memberAddress()), localAddress, 0, false);
                return;
            }
        }
        boolean nearCopy = near != null && plain && !ownerSpilled && !selection.owner().localMember();
        CompletionStage<FailoverChain.Outcome> done;
        try {
            done = ownerSpilled ? chain.serveSpilled(text, selection.candidates(), span)
                    : chain.serve(text, selection.candidates(), span);
        } catch (RuntimeException e) {
            done = CompletableFuture.failedFuture(e);
        }
        done.whenComplete((outcome, failure) -> {
            if (failure != null) {
                if (span != null) {
                    span.fail(Failures.cause(failure));
                }
                problem(ctx, Failures.cause(failure));
                return;
            }
            Served served = outcome.served();
            if (span != null) {
                ended(span, served, outcome.failures().size(), outcome.spilled());
            }
            metrics.served(served.cache(), outcome.forwarded(), outcome.failures().size());
            if (outcome.spilled()) {
                metrics.spilled();
            }
            if (nearCopy && outcome.forwarded()) {
                near.offer(text, served.answer()); // kept for a hot key: its next requests here need no hop
            }
            CharSequence owner = selection.owner().localMember() ? localAddress : Members.address(selection.owner());
            answer(request, owner, selection, served, served.servedBy(), outcome.failures().size(), outcome.spilled());
        });
    }

    private static void ended(io.ketama.router.tracing.RouteSpan span, Served served, int failures, boolean spilled) {
        span.cache(served.cache());
        span.failover(failures, spilled);
        span.end();
    }

    private void answer(HttpServerRequest request, CharSequence owner, Selection selection, Served served,
                               CharSequence servedBy, int failures, boolean spilled) {
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
                .add(OWNER, owner)
                .add(SERVED_BY, servedBy)
                .add(RING, RING_LABELS[selection.version().ordinal()])
                .add(CACHE, CACHE_LABELS[served.cache().ordinal()]);
        if (failures > 0) {
            headers.add(FAILOVER, Integer.toString(failures));
        }
        if (spilled) {
            headers.add(SPILLED, ONE);
        }
        if (answer.location() != null) {
            headers.add(LOCATION, redirects.forClient(answer.location()));
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

    /** Ends the answer to a {@code HEAD}: the length of the body its {@code GET} gets, and no body. */
    private static void endHead(HttpServerResponse response, int length) {
        response.headers().add(CONTENT_LENGTH, Integer.toString(length));
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

    /** The problem document the resource's exception mappers would write for a chain that failed. */
    private void problem(RoutingContext ctx, Throwable cause) {
        HttpServerResponse response = ctx.response();
        if (response.closed() || response.ended()) {
            return;
        }
        ProblemException problem;
        if (CacheResource.problem(cause) instanceof ProblemException known) {
            problem = known;
        } else {
            LOG.error("request failed unexpectedly", cause);
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
}
