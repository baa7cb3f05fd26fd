package io.ketama.router.forwarding;

import com.hazelcast.cluster.Member;
import io.ketama.router.forwarding.guard.Attempt;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.Served;
import io.ketama.router.tracing.TraceContext;
import java.util.concurrent.CompletionStage;

/**
 * One forward as its member's guard tries it: the request for a key, where it goes, and how it travels, as a
 * value. Made once per forward, where the lambda it replaces was made, and tried by the guard once
 * and again for each retry.
 */
final class ForwardAttempt implements Attempt {

    private final TransportAttempts attempts;
    private final Member target;
    private final KeyRequest request;
    private final boolean spillable;
    /** Null: untraced. */
    private final TraceContext trace;

    ForwardAttempt(TransportAttempts attempts, Member target, KeyRequest request, boolean spillable, TraceContext trace) {
        this.attempts = attempts;
        this.target = target;
        this.request = request;
        this.spillable = spillable;
        this.trace = trace;
    }

    @Override
    public CompletionStage<Served> start() {
        return attempts.attempt(target, request, spillable, trace);
    }
}
