package io.ketama.router.forwarding;

import io.ketama.router.load.OwnerLoad;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.Served;
import io.ketama.router.tracing.RouteSpan;
import io.ketama.router.tracing.TraceContext;
import io.ketama.router.tracing.Tracing;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The receiving end of forwards on one member: whichever transport a forwarded key arrives by,
 * it is served here by the member's {@link KeyServer}, or refused with
 * {@link NotServingException} while none is attached (starting, stopping). Counts the forwards
 * it is serving, so a stopping member can finish them before it closes its transports.
 *
 * <p>Every key it serves counts in the member's {@link OwnerLoad}; a key its sender marked spillable
 * is served only while the member is under its bound, else answered with {@link SpilledException}
 * (the sender sends it to the key's next candidate, as a final request).
 */
public final class ForwardReceiver {

    /** The entry in a Hazelcast member's user context under which its receiver is found. */
    public static final String USER_CONTEXT_KEY = "io.ketama.router.ForwardReceiver";

    /** The one answer past the bound: stackless and immutable, so shared. */
    private static final SpilledException SPILLED = new SpilledException("past its bound");

    /** What serves, and the load it counts in: set and read as one. */
    private record Attached(KeyServer server, OwnerLoad load) {
    }

    private volatile Attached attached;
    /** Where the owner's spans start: {@link Tracing#OFF} unless tracing is on. */
    private volatile Tracing tracing = Tracing.OFF;
    private final AtomicInteger inFlight = new AtomicInteger();

    /** Serves forwarded keys with {@code server} from now on, spilling none (its load counted in a bound of its own). */
    public void attach(KeyServer server) {
        attach(server, OwnerLoad.unbounded());
    }

    /** Serves forwarded keys with {@code server} from now on, counting them in {@code load} and spilling past its bound. */
    public void attach(KeyServer server, OwnerLoad load) {
        this.attached = new Attached(java.util.Objects.requireNonNull(server, "server"), java.util.Objects.requireNonNull(load, "load"));
    }

    /** Starts the owner's span of each forwarded key with {@code tracing} from now on. */
    public void tracing(Tracing tracing) {
        this.tracing = java.util.Objects.requireNonNull(tracing, "tracing");
    }

    /** Whether it starts spans (a transport reads a forward's trace context only then). */
    public boolean traces() {
        return tracing != Tracing.OFF;
    }

    /** Refuses forwarded keys from now on; those under way finish. */
    public void detach() {
        this.attached = null;
    }

    /** Serves a forwarded {@code key} that may not be spilled (a final request), as a plain {@code GET} ({@link KeyRequest#of}). */
    public CompletionStage<Served> serve(String key) {
        return serve(key, false);
    }

    /**
     * Serves a forwarded {@code key}.
     *
     * @param spillable whether its sender lets this member spill it (channel version 3 and later)
     * @return as {@link KeyServer#serve}; completed exceptionally with {@link NotServingException}
     *         while no key server is attached, with {@link SpilledException} when it was spillable and
     *         this member is past its bound
     */
    public CompletionStage<Served> serve(String key, boolean spillable) {
        return serve(key, spillable, (TraceContext) null);
    }

    /**
     * As {@link #serve(String, boolean)}, in a span of the owner's that continues {@code trace} (the
     * forwarding member's, as its forward carried it; null: none came) where tracing is on.
     */
    public CompletionStage<Served> serve(String key, boolean spillable, TraceContext trace) {
        return serve(KeyRequest.of(key), spillable, trace);
    }

    /**
     * Serves a forwarded request for a key (channel version 5 and later carry the whole request: the
     * key, the origin's target and the client's fields), as {@link #serve(String, boolean)} does.
     */
    public CompletionStage<Served> serve(KeyRequest request, boolean spillable, TraceContext trace) {
        RouteSpan span = tracing.served(request.key(), trace);
        if (span == null) {
            return served(request, spillable, null);
        }
        CompletionStage<Served> answer;
        try {
            answer = served(request, spillable, span);
        } catch (RuntimeException e) {
            span.fail(e);
            throw e;
        }
        return answer.whenComplete((served, failure) -> {
            if (failure != null) {
                span.fail(failure);
            } else {
                span.cache(served.cache());
                span.end();
            }
        });
    }

    private CompletionStage<Served> served(KeyRequest request, boolean spillable, RouteSpan span) {
        Attached a = attached;
        if (a == null) {
            return CompletableFuture.failedFuture(new NotServingException("the member serves no forwarded keys now "
                    + "(starting or stopping)"));
        }
        if (!spillable) {
            a.load.serve();
        } else if (!a.load.admit(request.key())) {
            return CompletableFuture.failedFuture(SPILLED);
        }
        KeyServer server = a.server;
        Served hit = server.hit(request);
        if (hit != null) {
            return CompletableFuture.completedFuture(hit);
        }
        inFlight.incrementAndGet();
        return server.serve(request, span).whenComplete((served, failure) -> inFlight.decrementAndGet());
    }

    /**
     * Whether {@code served}, the answer to an older member's plain {@code request} (channel version 4
     * or before: the key alone), may go to that member, which stores it without reading its fields:
     * only an answer any client may have, one this member's policy would store for a request without
     * fields and that does not vary by request fields ({@code Vary}).
     */
    public boolean shareableWithOlderMembers(KeyRequest request, Served served) {
        Attached a = attached;
        return a != null && !served.answer().headers().has("Vary")
                && a.server.policy().storable(request.request(), served.answer());
    }

    /**
     * Drops every stored answer of {@code key} here (an unsafe request through another member changed
     * it, RFC 9111 §4.4).
     *
     * @return whether a key server was attached to drop them (a starting or stopping member holds none)
     */
    public boolean invalidate(String key) {
        Attached a = attached;
        if (a == null) {
            return false;
        }
        a.server.invalidate(key);
        return true;
    }

    /** Forwarded keys being served now (waiting for the origin: hits are done at once). */
    public int inFlight() {
        return inFlight.get();
    }

    /**
     * Waits until no forwarded key is being served, at most {@code maxMillis}: for a stopping
     * member that keeps its transports open until the forwards it took are answered.
     *
     * @return whether none is left
     */
    public boolean awaitIdle(long maxMillis) {
        long deadline = System.nanoTime() + maxMillis * 1_000_000;
        while (inFlight.get() > 0) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return inFlight.get() == 0;
            }
        }
        return true;
    }
}
