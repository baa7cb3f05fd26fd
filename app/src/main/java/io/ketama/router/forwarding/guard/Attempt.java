package io.ketama.router.forwarding.guard;

import io.ketama.router.serving.Served;
import java.util.concurrent.CompletionStage;

/**
 * One try of a forward, as the guard runs it: once, and again for each retry, each time through the
 * breaker and the bulkhead. The guard knows nothing of what a try does; whoever hands it one keeps
 * that to itself, so calls go one way: from the guard to the try, never back into the guard's caller.
 */
@FunctionalInterface
public interface Attempt {

    /**
     * Starts the try.
     *
     * @return its answer, or completed exceptionally with what it failed with; a try that throws
     *         fails the same way
     */
    CompletionStage<Served> start();
}
