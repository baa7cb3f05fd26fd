package io.ketama.router.forwarding;

import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.Served;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The receiving end of forwards on one member: whichever transport a forwarded key arrives by,
 * it is served here by the member's {@link KeyServer}, or refused with
 * {@link NotServingException} while none is attached (starting, stopping). Counts the forwards
 * it is serving, so a stopping member can finish them before it closes its transports.
 */
public final class ForwardReceiver {

    /** The entry in a Hazelcast member's user context under which its receiver is found. */
    public static final String USER_CONTEXT_KEY = "io.ketama.router.ForwardReceiver";

    private volatile KeyServer keyServer;
    private final AtomicInteger inFlight = new AtomicInteger();

    /** Serves forwarded keys with {@code server} from now on. */
    public void attach(KeyServer server) {
        this.keyServer = server;
    }

    /** Refuses forwarded keys from now on; those under way finish. */
    public void detach() {
        this.keyServer = null;
    }

    /**
     * Serves a forwarded {@code key}.
     *
     * @return as {@link KeyServer#serve}; completed exceptionally with {@link NotServingException}
     *         while no key server is attached
     */
    public CompletionStage<Served> serve(String key) {
        KeyServer server = keyServer;
        if (server == null) {
            return CompletableFuture.failedFuture(new NotServingException("the member serves no forwarded keys now "
                    + "(starting or stopping)"));
        }
        Served hit = server.hit(key);
        if (hit != null) {
            return CompletableFuture.completedFuture(hit);
        }
        inFlight.incrementAndGet();
        return server.serve(key).whenComplete((served, failure) -> inFlight.decrementAndGet());
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
