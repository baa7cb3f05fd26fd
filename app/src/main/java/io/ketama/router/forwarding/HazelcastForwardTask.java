package io.ketama.router.forwarding;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.ketama.quarkus.MemberAddress;
import io.ketama.router.serving.Served;
import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A key sent to its owner through the cluster's executor service: on the receiving member it is
 * served by that member's {@link ForwardReceiver} (found in the Hazelcast user context), so the
 * owner's cache is the one read and filled. The executor runs tasks on its own bounded pool and
 * wants an answer when {@link #call} returns, so a miss holds one of its threads until the origin
 * answers (at most {@link #MAX_WAIT_SECONDS}).
 */
final class HazelcastForwardTask implements java.util.concurrent.Callable<HazelcastForwardReply>,
        IdentifiedDataSerializable, HazelcastInstanceAware {

    static final long MAX_WAIT_SECONDS = 60;

    private String key;
    private transient HazelcastInstance member;

    HazelcastForwardTask() {
    }

    HazelcastForwardTask(String key) {
        this.key = key;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.member = hazelcastInstance;
    }

    @Override
    public HazelcastForwardReply call() {
        Object receiver = member == null ? null : member.getUserContext().get(ForwardReceiver.USER_CONTEXT_KEY);
        if (!(receiver instanceof ForwardReceiver r)) {
            return HazelcastForwardReply.failed(RemoteFailure.NOT_SERVING, "member "
                    + (member == null ? "?" : MemberAddress.of(member.getCluster().getLocalMember()))
                    + " serves no forwarded keys (no receiver in its user context)");
        }
        try {
            Served served = r.serve(key).toCompletableFuture().get(MAX_WAIT_SECONDS, TimeUnit.SECONDS);
            return HazelcastForwardReply.served(served);
        } catch (ExecutionException e) {
            return HazelcastForwardReply.failed(RemoteFailure.of(e), RemoteFailure.message(e));
        } catch (TimeoutException e) {
            return HazelcastForwardReply.failed(RemoteFailure.FAILED, "no answer within " + MAX_WAIT_SECONDS + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return HazelcastForwardReply.failed(RemoteFailure.FAILED, "interrupted");
        }
    }

    @Override
    public int getFactoryId() {
        return HazelcastForwarding.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return HazelcastForwarding.TASK;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeString(key);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        key = in.readString();
    }
}
