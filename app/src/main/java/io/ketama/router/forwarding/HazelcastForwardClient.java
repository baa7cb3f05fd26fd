package io.ketama.router.forwarding;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.MemberLeftException;
import com.hazelcast.spi.exception.TargetNotMemberException;
import io.ketama.router.serving.Failures;
import io.ketama.router.serving.HttpOrigin;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.Served;
import io.vertx.core.Vertx;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

/**
 * Forwards through Hazelcast's executor service: a {@link HazelcastForwardTask} runs on the
 * target member and its {@link HazelcastForwardReply} comes back, both IdentifiedDataSerializable.
 * Completions are moved to the caller's event loop explicitly: left to Hazelcast, a callback on
 * its invocation future runs on its default async executor, which starts a thread per callback
 * where the common pool has one thread (any 2-CPU machine).
 *
 * <p>It takes a reply's body only up to this member's own {@code ketama.router.origin.max-body-bytes},
 * whatever the owner's limit: a larger one fails the forward, which the next candidate then serves,
 * as the other transports do. Hazelcast reads a reply whole before it hands it over (the cluster's
 * own connections and framing), so here the reply is refused once it has arrived, not kept and not
 * served.
 */
public final class HazelcastForwardClient implements ForwardTransport {

    private static final String MAX_BODY_BYTES_KEY = "ketama.router.origin.max-body-bytes";

    private final HazelcastInstance hazelcast;
    private final Vertx vertx;
    /** The largest body of a forward's reply taken: {@code ketama.router.origin.max-body-bytes}. */
    private final int maxBodyBytes;

    public HazelcastForwardClient(HazelcastInstance hazelcast, Vertx vertx) {
        this(hazelcast, vertx, HttpOrigin.DEFAULT_MAX_BODY_BYTES);
    }

    /** {@link #HazelcastForwardClient(HazelcastInstance, Vertx)} taking replies whose body is at most {@code maxBodyBytes} (at least 1). */
    public HazelcastForwardClient(HazelcastInstance hazelcast, Vertx vertx, int maxBodyBytes) {
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("max body bytes must be >= 1, was " + maxBodyBytes);
        }
        this.hazelcast = hazelcast;
        this.vertx = vertx;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    @SuppressWarnings("unchecked")
    public CompletionStage<Served> forward(Member target, String key) {
        var context = CallerContext.of(vertx);
        Future<HazelcastForwardReply> future = hazelcast.getExecutorService(HazelcastForwarding.EXECUTOR)
                .submitToMember(new HazelcastForwardTask(key), target);
        CompletableFuture<Served> answer = new CompletableFuture<>();
        ((CompletionStage<HazelcastForwardReply>) future).whenCompleteAsync((reply, failure) -> {
            if (failure != null) {
                answer.completeExceptionally(translate(failure, target));
            } else if (reply.served() != null && reply.served().answer().body().length > maxBodyBytes) {
                answer.completeExceptionally(tooLarge(target, reply.served().answer().body().length));
            } else if (reply.served() != null) {
                answer.complete(reply.served());
            } else {
                answer.completeExceptionally(reply.failure().toException(Members.address(target), reply.message()));
            }
        }, CallerContext.executor(context));
        return answer;
    }

    /** A reply past this member's limit: the owner's fault, as for the other transports, so the next candidate is tried. */
    private ForwardFailedException tooLarge(Member target, int bodyBytes) {
        return new ForwardFailedException("member " + Members.address(target) + " over hazelcast answered a forward with a body of "
                + bodyBytes + " bytes; this member takes at most " + maxBodyBytes + " bytes (" + MAX_BODY_BYTES_KEY + ")");
    }

    private static Throwable translate(Throwable failure, Member target) {
        Throwable cause = Failures.cause(failure);
        if (cause instanceof TargetNotMemberException || cause instanceof MemberLeftException) {
            return new MemberGoneException("member " + Members.address(target) + " left during the forward: " + cause.getMessage());
        }
        return cause;
    }

    @Override
    public TransportKind kind() {
        return TransportKind.HAZELCAST;
    }

    @Override
    public void close() {
        // Hazelcast owns the connections
    }
}
