package io.ketama.router.forwarding.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.ketama.router.forwarding.ForwardReceiver;
import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * Drops a key's stored answers on the member it runs on (RFC 9111 §4.4: an unsafe request through
 * another member changed the key), through that member's {@link ForwardReceiver}. Since channel
 * version 5, and only ever sent to a member that publishes it: an older one does not know the class.
 * Answers whether the member held a key server to drop them with.
 */
final class HazelcastInvalidateTask implements Callable<Boolean>, IdentifiedDataSerializable, HazelcastInstanceAware {

    private String key;
    private transient HazelcastInstance member;

    HazelcastInvalidateTask() {
    }

    HazelcastInvalidateTask(String key) {
        this.key = key;
    }

    @Override
    public void setHazelcastInstance(HazelcastInstance hazelcastInstance) {
        this.member = hazelcastInstance;
    }

    @Override
    public Boolean call() {
        Object receiver = member == null ? null : member.getUserContext().get(ForwardReceiver.USER_CONTEXT_KEY);
        return receiver instanceof ForwardReceiver r && r.invalidate(key);
    }

    @Override
    public int getFactoryId() {
        return HazelcastForwarding.FACTORY_ID;
    }

    @Override
    public int getClassId() {
        return HazelcastForwarding.INVALIDATE;
    }

    @Override
    public void writeData(ObjectDataOutput out) throws IOException {
        out.writeString(key);
    }

    @Override
    public void readData(ObjectDataInput in) throws IOException {
        key = in.readString();
        if (key == null || key.isEmpty()) {
            throw new IOException("an invalidation without a key");
        }
    }
}
