package io.ketama.router.forwarding;

import com.hazelcast.cluster.Member;
import io.ketama.router.forwarding.guard.Attempt;
import io.ketama.router.serving.Served;
import io.ketama.router.tracing.TraceContext;
import java.util.concurrent.CompletionStage;

/**
 * One forward as its member's guard tries it: the key, where it goes, and how it travels, as a
 * value. Made once per forward, where the lambda it replaces was made, and tried by the guard once
 * and again for each retry.
 */
final class ForwardAttempt implements Attempt {

    private final TransportAttempts attempts;
    private final Member target;
    private final String key;
    private final boolean spillable;
    /** Null: untraced. */
    private final TraceContext trace;

    ForwardAttempt(TransportAttempts attempts, Member target, String key, boolean spillable, TraceContext trace) {
        this.attempts = attempts;
        this.target = target;
        this.key = key;
        this.spillable = spillable;
        this.trace = trace;
    }

    @Override
    public CompletionStage<Served> start() {
        return attempts.attempt(target, key, spillable, trace);
    }
}
