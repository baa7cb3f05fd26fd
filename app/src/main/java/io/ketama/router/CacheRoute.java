package io.ketama.router;

import com.hazelcast.cluster.Member;
import io.ketama.quarkus.Selection;
import io.ketama.router.caching.CachePolicy;
import io.ketama.router.forwarding.FailoverChain;
import io.ketama.router.hot.HotKeys;
import io.ketama.router.hot.NearCache;
import io.ketama.router.load.OwnerLoad;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.Failures;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.Members;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.Served;
import io.ketama.router.tracing.RouteSpan;
import io.ketama.router.tracing.Tracing;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The proxy's entry on the HTTP route, ahead of Quarkus REST: every request under {@code /cache/} and
 * every path at the root that is not the service's own ({@link Mount}) is read ({@link RequestReader})
 * and then either passed through ({@link PassRoute}: a request the cache takes no part in) or served
 * through the ring: a local hit at once, a near copy of a hot key another member owns, any other key
 * through the {@link FailoverChain}; {@link CacheAnswers} writes what comes of it, the problem of a
 * request that cannot be routed (a bad key or features header, rings not ready, no member with the
 * features) included. Building a JAX-RS response for each answer (a case-insensitive header map, a
 * writer lookup, the resource's handler chain) took a third of a local hit's CPU time.
 *
 * <p>A {@code HEAD} is served as its {@code GET} is (the key fetched and stored where the {@code GET}
 * would fetch it) and answered with the same status and headers, its {@code Content-Length} that of
 * the body the {@code GET} sends, and no body.
 *
 * <p>Hot keys (app/README, "Hot keys"): every key routed here is counted in {@link HotKeys}; a key
 * this member owns is admitted by its {@link OwnerLoad} before its local hit (past its bound it goes
 * to the key's next candidate); a key another member owns is answered from its near copy
 * ({@link NearCache}, {@code X-Ketama-Cache: NEAR}) while one may answer the request and the request
 * requires no features, and a forwarded answer is offered to the near cache (kept only for a hot key,
 * and only as the policy allows).
 */
@Singleton
class CacheRoute {

    /** After admission, before Quarkus REST's own route. */
    static final int ORDER = CacheAdmission.ORDER + 1;
    static final String PREFIX = Mount.CACHE_PREFIX;

    private final OwnerLookup owners;
    private final RouterMetrics metrics;
    private final CacheAnswers answers;
    private final KeyServer keyServer;
    private final FailoverChain chain;
    private final CharSequence localAddress;
    /** This member's load as a key's server: a key it owns is admitted here before its local hit. */
    private final OwnerLoad load;
    private final HotKeys hot;
    /** Null: no near copies. */
    private final NearCache near;
    private final Tracing tracing;
    private final RequestReader reader;
    private final CachePolicy policy;
    private final PassRoute pass;

    CacheRoute(OwnerLookup owners, RouterMetrics metrics, CacheAnswers answers, KeyServer keyServer, FailoverChain chain,
               OwnerLoad load, HotKeys hot, NearCache near, Tracing tracing, RequestReader reader, CachePolicy policy,
               PassRoute pass) {
        this.owners = owners;
        this.metrics = metrics;
        this.answers = answers;
        this.keyServer = keyServer;
        this.chain = chain;
        this.localAddress = HttpHeaders.createOptimized(keyServer.memberAddress());
        this.load = load;
        this.hot = hot;
        this.near = near;
        this.tracing = tracing;
        this.reader = reader;
        this.policy = policy;
        this.pass = pass;
    }

    void register(@Observes Router router) {
        router.route(PREFIX + "*").order(ORDER).handler(ctx -> serve(ctx, Mount.CACHE));
        router.route().order(ORDER).handler(ctx -> {
            if (Mount.proxied(ctx.request().path())) {
                serve(ctx, Mount.ROOT);
            } else {
                ctx.next();
            }
        });
    }

    private void serve(RoutingContext ctx, Mount mount) {
        HttpServerRequest request = ctx.request();
        HttpMetricsUri.name(ctx, mount == Mount.CACHE ? HttpMetricsUri.CACHE : HttpMetricsUri.ROOT);
        ProxiedRequest proxied;
        try {
            proxied = reader.read(request, mount);
        } catch (RuntimeException e) {
            answers.problem(ctx, e);
            return;
        }
        if (!policy.usesCache(proxied.request())) {
            pass.serve(ctx, proxied);
            return;
        }
        RawKey key = proxied.key();
        Selection selection;
        String passedOver;
        boolean plain = proxied.features().isEmpty(); // requires no features: a near copy may answer it
        try {
            passedOver = PassedOver.requireValid(request.getHeader(PassedOver.NAME));
            selection = owners.select(key, proxied.features());
        } catch (RuntimeException e) {
            answers.problem(ctx, e);
            return;
        }
        String text = key.text();
        KeyRequest asked = proxied.keyRequest(hints -> answers.interim(request, hints));
        hot.record(text);
        RouteSpan span = tracing.entry(text); // null unless tracing is on
        if (span != null) {
            span.route(CacheAnswers.ringLabel(selection.version()).toString(),
                    selection.owner().localMember() ? keyServer.memberAddress() : Members.address(selection.owner()));
        }
        boolean ownerSpilled = false;
        if (selection.owner().localMember()) { // not by UUID: a split-brain merge gives this member a new one
            if (load.admit(text)) { // counted as served here, or refused past the bound
                Served hit = keyServer.hit(asked);
                if (hit != null) {
                    metrics.served(hit.cache(), false, 0);
                    if (span != null) {
                        ended(span, hit, 0, false);
                    }
                    answers.answer(request, proxied, localAddress, selection, hit, localAddress, 0, false);
                    return;
                }
            } else {
                ownerSpilled = true;
            }
        } else if (near != null && plain) {
            OriginAnswer copy = near.get(text, proxied.request(), System.currentTimeMillis());
            if (copy != null) {
                metrics.served(CacheStatus.NEAR, false, 0);
                if (span != null) {
                    span.cache(CacheStatus.NEAR);
                    span.end();
                }
                answers.answer(request, proxied, Members.address(selection.owner()), selection,
                        new Served(copy, CacheStatus.NEAR, keyServer.memberAddress()), localAddress, 0, false);
                return;
            }
        }
        boolean nearCopy = near != null && plain && !ownerSpilled && !selection.owner().localMember();
        long mark = nearCopy ? keyServer.cache().marks().mark() : 0; // a purge that overtakes the forward keeps its answer from the near copies
        CompletionStage<FailoverChain.Outcome> done;
        try {
            List<Member> candidates = PassedOver.without(selection.candidates(), passedOver);
            done = ownerSpilled ? chain.serveSpilled(asked, candidates, span) : chain.serve(asked, candidates, span);
        } catch (RuntimeException e) {
            done = CompletableFuture.failedFuture(e);
        }
        done.whenComplete((outcome, failure) -> {
            if (failure != null) {
                if (span != null) {
                    span.fail(Failures.cause(failure));
                }
                answers.problem(ctx, Failures.cause(failure));
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
                // kept for a hot key, as the policy allows: its next requests here need no hop
                near.offer(text, proxied.request(), served.answer(), System.currentTimeMillis(), mark);
            }
            CharSequence owner = selection.owner().localMember() ? localAddress : Members.address(selection.owner());
            answers.answer(request, proxied, owner, selection, served, served.servedBy(), outcome.failures().size(), outcome.spilled());
        });
    }

    private static void ended(RouteSpan span, Served served, int failures, boolean spilled) {
        span.cache(served.cache());
        span.failover(failures, spilled);
        span.end();
    }

}
