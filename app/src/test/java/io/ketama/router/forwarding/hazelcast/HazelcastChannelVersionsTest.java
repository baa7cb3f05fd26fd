package io.ketama.router.forwarding.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.IdentifiedDataSerializable;
import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.forwarding.channel.RemoteFailure;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.serving.Served;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * What a member of this release sends a member of the previous one (channel version 1, which says
 * no version anywhere) on the Hazelcast transport, and what it makes of what such a member sends:
 * the previous release is played by a stand-in task that reads exactly the fields version 1 does.
 */
class HazelcastChannelVersionsTest {
    /** The previous release's task: the key, nothing after it (its readData as released). */
    static final class V1Task implements IdentifiedDataSerializable {
        String key;

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

    private static SerializationService serialization(com.hazelcast.nio.serialization.DataSerializableFactory factory) {
        return new DefaultSerializationServiceBuilder().addDataSerializableFactory(HazelcastForwarding.FACTORY_ID, factory).build();
    }

    @Test
    void hazelcastPayloadsOfEitherVersionReadOnTheOther() {
        SerializationService current = serialization(HazelcastForwarding.factory());
        SerializationService previous = serialization(type -> type == HazelcastForwarding.TASK ? new V1Task() : null);

        Data fromCurrent = current.toData(new HazelcastForwardTask("k-é"));
        V1Task readByPrevious = previous.toObject(fromCurrent);
        assertThat(readByPrevious.key).as("the previous release reads the key and stops before the version").isEqualTo("k-é");

        V1Task old = new V1Task();
        old.key = "k2";
        HazelcastForwardTask readByCurrent = current.toObject(previous.toData(old));
        assertThat(readByCurrent.version()).as("a task without a version is version 1").isEqualTo(1);
        assertThat(current.<HazelcastForwardTask>toObject(fromCurrent).version()).isEqualTo(ChannelVersion.CURRENT);

        Served served = new Served(new OriginAnswer(302, "text/html", new byte[] {1, 2}, "/x"), CacheStatus.MISS, "m");
        HazelcastForwardReply reply = current.toObject(current.toData(HazelcastForwardReply.served(served)));
        assertThat(reply.served()).isEqualTo(served);
        assertThat(reply.version()).isEqualTo(ChannelVersion.CURRENT);
        HazelcastForwardReply refused = current.toObject(current.toData(
                HazelcastForwardReply.failed(RemoteFailure.REFUSED, "no", 1)));
        assertThat(refused.failure()).as("a code version 1 does not know goes to it as FAILED").isEqualTo(RemoteFailure.FAILED);
    }
}
