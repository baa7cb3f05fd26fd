package io.ketama.router.forwarding.hazelcast;

import static io.ketama.router.forwarding.ChannelTests.TRACE;
import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.router.forwarding.hazelcast.ReleasedFormats.V3Task;
import org.junit.jupiter.api.Test;

/**
 * Channel version 4 (trace context) on the Hazelcast transport: the task carries its trace after its
 * flags, which a version-3 reader never reads.
 */
class HazelcastTraceTest {
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
