package io.ketama.router.forwarding;

import com.hazelcast.cluster.Member;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.Served;
import io.ketama.router.tracing.TraceContext;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * How one try of a forward goes, for every member: on the transport, within the attempt's time limit
 * ({@link AttemptTimeLimit}), and only to a member still in the cluster. Apart from the
 * {@link Forwarder} so that a guard's try ({@link ForwardAttempt}) runs here and never calls back
 * into the forwarder that handed it to the guard.
 */
final class TransportAttempts {

    private final ForwardTransport transport;
    private final AttemptTimeLimit timeLimit;
    private volatile Set<UUID> members;

    TransportAttempts(ForwardTransport transport, AttemptTimeLimit timeLimit, Set<UUID> members) {
        this.transport = transport;
        this.timeLimit = timeLimit;
        this.members = Set.copyOf(members);
    }

    /**
     * One try: {@code target}'s answer, or failed with {@link MemberGoneException} where it has left
     * (checked on every try: a retry may come after the member left).
     */
    CompletionStage<Served> attempt(Member target, KeyRequest request, boolean spillable, TraceContext trace) {
        return present(target)
                ? timeLimit.limit(transport.forward(target, request, spillable, trace), target)
                : CompletableFuture.failedFuture(gone(target));
    }

    /** {@code target} asked to drop {@code key}'s stored answers, failed past the attempt's time limit. */
    CompletionStage<Void> invalidate(Member target, String key) {
        return transport.invalidate(target, key).toCompletableFuture().orTimeout(timeLimit.millis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** Whether {@code target} is a member of the cluster now. */
    boolean present(Member target) {
        return members.contains(target.getUuid());
    }

    /** The cluster's members now. */
    void membersNow(Set<UUID> present) {
        members = Set.copyOf(present);
    }

    static MemberGoneException gone(Member target) {
        return new MemberGoneException("member " + Members.address(target) + " has left the cluster");
    }

    ForwardTransport transport() {
        return transport;
    }

    long timedOut() {
        return timeLimit.timedOut();
    }
}
