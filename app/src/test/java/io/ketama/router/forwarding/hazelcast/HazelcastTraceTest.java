package io.ketama.router.forwarding.hazelcast;

import static io.ketama.router.forwarding.ChannelTests.TRACE;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Channel version 4 (trace context) on the Hazelcast transport: the task carries its trace after its
 * flags, which a version-3 reader never reads.
 */
class HazelcastTraceTest {
    /** The version-3 release's task: key, version byte, flags byte, nothing after. */
    static final class V3Task implements com.hazelcast.nio.serialization.IdentifiedDataSerializable {
        String key;
        int version;
        int flags;

        @Override
        public int getFactoryId() {
            return HazelcastForwarding.FACTORY_ID;
        }

        @Override
        public int getClassId() {
            return HazelcastForwarding.TASK;
        }

        @Override
        public void writeData(com.hazelcast.nio.ObjectDataOutput out) throws java.io.IOException {
            out.writeString(key);
            out.writeByte(3);
            out.writeByte(flags);
        }

        @Override
        public void readData(com.hazelcast.nio.ObjectDataInput in) throws java.io.IOException {
            key = in.readString();
            version = in.readByte();
            flags = in.readByte();
        }
    }

    @Test
    void theHazelcastTaskCarriesItsTraceAfterTheFlagsWhereAVersionThreeReaderStops() {
        com.hazelcast.internal.serialization.SerializationService current = new com.hazelcast.internal.serialization.impl
                .DefaultSerializationServiceBuilder().addDataSerializableFactory(HazelcastForwarding.FACTORY_ID,
                        HazelcastForwarding.factory()).build();
        com.hazelcast.internal.serialization.SerializationService previous = new com.hazelcast.internal.serialization.impl
                .DefaultSerializationServiceBuilder().addDataSerializableFactory(HazelcastForwarding.FACTORY_ID,
                        type -> type == HazelcastForwarding.TASK ? new V3Task() : null).build();
        com.hazelcast.internal.serialization.Data traced = current.toData(new HazelcastForwardTask("k", true, TRACE));
        HazelcastForwardTask read = current.toObject(traced);
        assertThat(read.trace()).isEqualTo(TRACE);
        assertThat(read.spillable()).isTrue();
        V3Task byPrevious = previous.toObject(traced);
        assertThat(byPrevious.key).isEqualTo("k");
        assertThat(byPrevious.flags & HazelcastForwardTask.SPILLABLE).as("its own flag as it knows it").isEqualTo(1);

        V3Task old = new V3Task();
        old.key = "k3";
        old.flags = HazelcastForwardTask.SPILLABLE;
        HazelcastForwardTask fromPrevious = current.toObject(previous.toData(old));
        assertThat(fromPrevious.trace()).as("a version-3 task carries none").isNull();
        assertThat(fromPrevious.spillable()).isTrue();
        assertThat(current.<HazelcastForwardTask>toObject(current.toData(new HazelcastForwardTask("u", false))).trace()).isNull();
    }
}
