package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.FaultToleranceException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

/**
 * An origin whose fetches go through {@link OriginGuard} (SmallRye Fault Tolerance). The guard's own
 * failures are told as the origin's: a timeout or an open breaker is an
 * {@link OriginUnavailableException} (a 502 {@code origin-unavailable} problem) saying which. The
 * outcome is delivered on the Vert.x context the fetch was asked on, when there was one: a timeout
 * or a breaker fires on the guard's timer thread, and what follows a fetch belongs on the event loop.
 */
public final class GuardedOrigin implements Origin {

    private final OriginGuard guard;
    private final Origin origin;

    public GuardedOrigin(OriginGuard guard, Origin origin) {
        this.guard = Objects.requireNonNull(guard, "guard");
        this.origin = Objects.requireNonNull(origin, "origin");
    }

    @Override
    public CompletionStage<OriginAnswer> fetch(OriginRequest request) {
        Context context = Vertx.currentContext();
        CompletionStage<OriginAnswer> guarded;
        try {
            guarded = guard.fetch(origin, request);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(told(e));
        }
        CompletableFuture<OriginAnswer> out = new CompletableFuture<>();
        guarded.whenComplete((answer, failure) -> {
            if (context == null || Vertx.currentContext() == context) {
                complete(out, answer, failure);
            } else {
                context.runOnContext(v -> complete(out, answer, failure));
            }
        });
        return out;
    }

    private static void complete(CompletableFuture<OriginAnswer> out, OriginAnswer answer, Throwable failure) {
        if (failure == null) {
            out.complete(answer);
        } else {
            out.completeExceptionally(told(failure));
        }
    }

    private static Throwable told(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof CircuitBreakerOpenException) {
            return new OriginUnavailableException("the origin's circuit breaker is open after repeated failures: fetches are "
                    + "refused until it lets one through (" + OriginGuard.METHOD + " circuit-breaker.delay)", cause);
        }
        if (cause instanceof TimeoutException) {
            return new OriginUnavailableException("the origin did not answer within the fault-tolerance timeout ("
                    + OriginGuard.METHOD + " timeout.value)", cause);
        }
        if (cause instanceof FaultToleranceException) {
            return new OriginUnavailableException("the origin fetch was refused by its fault tolerance: " + cause.getMessage(), cause);
        }
        return cause;
    }

    @Override
    public String toString() {
        return origin + ", guarded by SmallRye Fault Tolerance (" + OriginGuard.METHOD + ")";
    }
}
