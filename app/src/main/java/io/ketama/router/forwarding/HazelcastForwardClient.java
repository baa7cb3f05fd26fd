package io.ketama.router.forwarding;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.MemberLeftException;
import com.hazelcast.spi.exception.TargetNotMemberException;
import io.ketama.router.serving.Failures;
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
 */
public final class HazelcastForwardClient implements ForwardTransport {

    private final HazelcastInstance hazelcast;
    private final Vertx vertx;

    public HazelcastForwardClient(HazelcastInstance hazelcast, Vertx vertx) {
        this.hazelcast = hazelcast;
        this.vertx = vertx;
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
            } else if (reply.served() != null) {
                answer.complete(reply.served());
            } else {
                answer.completeExceptionally(reply.failure().toException(Members.address(target), reply.message()));
            }
        }, CallerContext.executor(context));
        return answer;
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
