package io.ketama.router.forwarding.hazelcast;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.concurrent.Executor;

/**
 * Where a forward's completion runs: on the Vert.x context of the caller (the event loop of the
 * HTTP request that started it), or, for a caller on no event loop, on an event loop Vert.x picks.
 * Never on a thread started for the purpose.
 */
final class CallerContext {

    private CallerContext() {
    }

    /** The caller's context, or a new one on one of {@code vertx}'s event loops. */
    static Context of(Vertx vertx) {
        Context current = Vertx.currentContext();
        return current != null ? current : vertx.getOrCreateContext();
    }

    /** Runs tasks on {@code context}. */
    static Executor executor(Context context) {
        return task -> context.runOnContext(ignored -> task.run());
    }
}
