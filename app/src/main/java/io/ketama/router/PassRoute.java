package io.ketama.router;

import io.ketama.router.caching.CachePolicy;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.BoundedOrigin;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.OriginRequest;
import io.ketama.router.serving.Served;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Singleton;

/**
 * Passes a request the cache takes no part in to the origin, from the member it entered: every
 * method but {@code GET} and {@code HEAD} (a form's {@code POST}, a {@code PUT}, a {@code DELETE},
 * {@code OPTIONS}, extension methods), and a {@code GET} that says {@code no-store}. Its method,
 * fields and body go as they came (the body read whole, at most
 * {@code ketama.router.proxy.max-request-body-bytes}); the origin's answer comes back as it is
 * ({@link CacheStatus#PASS}), nothing stored. The origin is asked once: no retry, which could send a
 * {@code POST} twice. An unsafe request that succeeded invalidates what it changed before it is
 * answered ({@link Invalidations}, RFC 9111 §4.4). {@code CONNECT} and {@code TRACE} are refused
 * (a {@code 405}): a gateway in front of one origin tunnels nothing, and {@code TRACE} would echo a
 * client's credentials back to a page (cross-site tracing).
 */
@Singleton
class PassRoute {

    private final BoundedOrigin origin;
    private final CacheAnswers answers;
    private final Invalidations invalidations;
    private final String memberAddress;
    private final int maxBodyBytes;

    PassRoute(BoundedOrigin origin, CacheAnswers answers, Invalidations invalidations, KeyServer keyServer, RouterSettings settings) {
        this.origin = origin;
        this.answers = answers;
        this.invalidations = invalidations;
        this.memberAddress = keyServer.memberAddress();
        this.maxBodyBytes = settings.proxy().maxRequestBodyBytes();
    }

    void serve(RoutingContext ctx, ProxiedRequest proxied) {
        String method = proxied.request().method();
        if (method.equals("CONNECT") || method.equals("TRACE")) {
            ctx.response().putHeader("Allow", "GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS");
            answers.problem(ctx, new ProblemException(ProblemType.METHOD_NOT_ALLOWED, method + " is not passed to the origin: "
                    + "this service is a gateway in front of one origin (every other method is passed)"));
            return;
        }
        Context context = Vertx.currentContext();
        RequestBodies.read(ctx.request(), maxBodyBytes)
                .onFailure(failure -> answers.problem(ctx, failure))
                .onSuccess(body -> origin.fetch(new OriginRequest(method, proxied.target(), proxied.request().headers(),
                        body.getBytes(), hints -> answers.interim(ctx.request(), hints))).whenComplete((answer, failure) -> {
                            if (context != null && Vertx.currentContext() != context) {
                                context.runOnContext(v -> answered(ctx, proxied, answer, failure));
                            } else {
                                answered(ctx, proxied, answer, failure);
                            }
                        }));
    }

    private void answered(RoutingContext ctx, ProxiedRequest proxied, OriginAnswer answer, Throwable failure) {
        if (failure != null) {
            answers.problem(ctx, failure);
            return;
        }
        Served served = new Served(answer, CacheStatus.PASS, memberAddress);
        if (CachePolicy.invalidates(proxied.request().method(), answer.status())) {
            invalidations.after(proxied, answer).whenComplete((v, e) -> answers.passed(ctx.request(), proxied, served));
        } else {
            answers.passed(ctx.request(), proxied, served);
        }
    }
}
