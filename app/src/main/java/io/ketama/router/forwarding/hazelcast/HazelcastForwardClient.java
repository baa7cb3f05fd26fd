package io.ketama.router.forwarding.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.MemberLeftException;
import com.hazelcast.spi.exception.TargetNotMemberException;
import io.ketama.router.forwarding.ForwardFailedException;
import io.ketama.router.forwarding.ForwardTransport;
import io.ketama.router.forwarding.MemberGoneException;
import io.ketama.router.forwarding.TransportKind;
import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.forwarding.NoUsableEndpointException;
import io.ketama.router.forwarding.NotServingException;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.tracing.TraceContext;
import io.ketama.router.serving.Failures;
import io.ketama.router.serving.HttpOrigin;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.NoRoomForReplyException;
import io.ketama.router.serving.Served;
import io.vertx.core.Vertx;
import java.util.Objects;
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
 *
 * <p>For the same reason a reply's body is taken from this member's {@link BodyBudget} only when
 * Hazelcast hands the reply over: the budget bounds how many bodies this member holds on to from
 * then on (until whoever sends the {@link Served} answer on releases it), not the receipt itself,
 * which Hazelcast's own connections do before this member sees the reply's length. A reply that
 * finds no room is dropped there, and its forward fails with {@link NoRoomForReplyException}, which
 * ends the failover chain at once with a 503 {@code overloaded}: the next candidate's reply would
 * need the same room here.
 */
public final class HazelcastForwardClient implements ForwardTransport {


    private final HazelcastInstance hazelcast;
    private final Vertx vertx;
    /** The largest body of a forward's reply taken: {@code ketama.router.origin.max-body-bytes}. */
    private final int maxBodyBytes;
    /** Where replies' bodies are held once handed over: {@code ketama.router.admission.max-buffered-bytes}. */
    private final BodyBudget budget;

    public HazelcastForwardClient(HazelcastInstance hazelcast, Vertx vertx) {
        this(hazelcast, vertx, HttpOrigin.DEFAULT_MAX_BODY_BYTES);
    }

    /**
     * {@link #HazelcastForwardClient(HazelcastInstance, Vertx)} taking replies whose body is at most
     * {@code maxBodyBytes} (at least 1), held in a budget of their own of the default size
     * ({@link BodyBudget#defaultBytes}).
     */
    public HazelcastForwardClient(HazelcastInstance hazelcast, Vertx vertx, int maxBodyBytes) {
        this(hazelcast, vertx, maxBodyBytes, new BodyBudget(BodyBudget.defaultBytes(Math.max(1, maxBodyBytes))));
    }

    /** {@link #HazelcastForwardClient(HazelcastInstance, Vertx, int)} holding replies' bodies in {@code budget}, which the member's other bodies share. */
    public HazelcastForwardClient(HazelcastInstance hazelcast, Vertx vertx, int maxBodyBytes, BodyBudget budget) {
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("max body bytes must be >= 1, was " + maxBodyBytes);
        }
        this.hazelcast = hazelcast;
        this.vertx = vertx;
        this.maxBodyBytes = maxBodyBytes;
        this.budget = Objects.requireNonNull(budget, "budget");
    }

    @Override
    @SuppressWarnings("unchecked")
    public CompletionStage<Served> forward(Member target, KeyRequest request, boolean spillable, TraceContext trace) {
        try {
            PeerEndpoints.requireHttpCaching(target);
        } catch (NoUsableEndpointException e) {
            return CompletableFuture.failedFuture(e);
        }
        var context = CallerContext.of(vertx);
        Future<HazelcastForwardReply> future = hazelcast.getExecutorService(HazelcastForwarding.EXECUTOR)
                .submitToMember(new HazelcastForwardTask(request, spillable, trace), target);
        CompletableFuture<Served> answer = new CompletableFuture<>();
        ((CompletionStage<HazelcastForwardReply>) future).whenCompleteAsync((reply, failure) -> {
            if (failure != null) {
                answer.completeExceptionally(translate(failure, target));
            } else if (reply.served() != null) {
                hold(reply.served(), target, answer);
            } else {
                answer.completeExceptionally(reply.failure().toException(Members.address(target), reply.message()));
            }
        }, CallerContext.executor(context));
        return answer;
    }

    @Override
    @SuppressWarnings("unchecked")
    public CompletionStage<Void> invalidate(Member target, String key) {
        try {
            PeerEndpoints.requireHttpCaching(target);
        } catch (NoUsableEndpointException e) {
            return CompletableFuture.failedFuture(e);
        }
        var context = CallerContext.of(vertx);
        Future<Boolean> future = hazelcast.getExecutorService(HazelcastForwarding.EXECUTOR)
                .submitToMember(new HazelcastInvalidateTask(key), target);
        CompletableFuture<Void> done = new CompletableFuture<>();
        ((CompletionStage<Boolean>) future).whenCompleteAsync((dropped, failure) -> {
            if (failure != null) {
                done.completeExceptionally(translate(failure, target));
            } else if (!dropped) {
                done.completeExceptionally(new NotServingException("member " + Members.address(target) + " serves no keys now"));
            } else {
                done.complete(null);
            }
        }, CallerContext.executor(context));
        return done;
    }

    /** Completes {@code answer} with {@code served} holding its body's bytes in the budget, or fails it: too large, no room. */
    private void hold(Served served, Member target, CompletableFuture<Served> answer) {
        int bodyBytes = served.answer().body().length;
        if (bodyBytes > maxBodyBytes) {
            answer.completeExceptionally(tooLarge(target, bodyBytes));
        } else if (!budget.take(bodyBytes)) {
            answer.completeExceptionally(budget.replyRefusal("a reply of " + bodyBytes + " bytes from member "
                    + Members.address(target) + " over hazelcast"));
        } else {
            answer.complete(Served.received(served.answer(), served.cache(), served.servedBy(), budget, bodyBytes));
        }
    }

    /** A reply past this member's limit: the owner's fault, as for the other transports, so the next candidate is tried. */
    private ForwardFailedException tooLarge(Member target, int bodyBytes) {
        return new ForwardFailedException("member " + Members.address(target) + " over hazelcast answered a forward with a body of "
                + bodyBytes + " bytes; this member takes at most " + maxBodyBytes + " bytes (" + HttpOrigin.MAX_BODY_BYTES_KEY + ")");
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
