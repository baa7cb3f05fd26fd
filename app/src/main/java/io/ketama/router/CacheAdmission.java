package io.ketama.router;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Admission of the proxy's requests on this member (under {@code /cache/} and at the root, {@link Mount}): at most
 * {@code ketama.router.admission.max-in-flight} under way at once (served here, forwarded, or
 * waiting for the origin). Past it a request is answered at once with a 503 {@code overloaded}
 * problem and {@code Retry-After}, written from a prepared body before any routing, so turning a
 * request away costs a small fraction of serving one: an overloaded member spends its time on the
 * requests it took instead of letting every request wait longer (by Little's law, with the limit
 * at L and a member answering R requests a second, no admitted request queues for more than
 * about L / R). What the bodies of those requests hold together is bounded beside it
 * ({@code ketama.router.admission.max-buffered-bytes}, {@link io.ketama.router.serving.BodyBudget}).
 */
@Singleton
class CacheAdmission {

    /** Runs before Quarkus REST's own route, which has the order 0 or later. */
    static final int ORDER = -1_000;

    private final int maxInFlight;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder refused = new LongAdder();
    private final CacheAnswers answers;
    /** The refusal, its document made once. */
    private final CacheAnswers.Prepared refusal;

    CacheAdmission(RouterSettings settings, CacheAnswers answers) {
        this.maxInFlight = settings.maxInFlight();
        this.answers = answers;
        this.refusal = answers.prepare(new ProblemException(ProblemType.OVERLOADED,
                "this member has " + maxInFlight + " requests under way, its limit; retry shortly", Map.of(), 1));
    }

    void register(@Observes Router router) {
        router.route(CacheRoute.PREFIX + "*").order(ORDER).handler(this::admit);
        router.route().order(ORDER).handler(ctx -> {
            if (Mount.proxied(ctx.request().path())) {
                admit(ctx);
            } else {
                ctx.next();
            }
        });
    }

    private void admit(RoutingContext ctx) {
        if (inFlight.incrementAndGet() > maxInFlight) {
            inFlight.decrementAndGet();
            refused.increment();
            HttpMetricsUri.name(ctx, ctx.request().path().startsWith(CacheRoute.PREFIX) ? HttpMetricsUri.CACHE : HttpMetricsUri.ROOT);
            answers.write(ctx, refusal);
            return;
        }
        ctx.addEndHandler(done -> inFlight.decrementAndGet());
        ctx.next();
    }

    /** Requests under way now. */
    int inFlight() {
        return inFlight.get();
    }

    int maxInFlight() {
        return maxInFlight;
    }

    /** Requests turned away since start-up. */
    long refused() {
        return refused.sum();
    }
}
