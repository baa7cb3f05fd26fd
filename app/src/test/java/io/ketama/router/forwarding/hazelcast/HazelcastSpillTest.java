package io.ketama.router.forwarding.hazelcast;

import static io.ketama.router.forwarding.ChannelTests.cause;
import static io.ketama.router.forwarding.ChannelTests.keyServer;
import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.LoopbackPeers;
import io.ketama.router.forwarding.NoUsableEndpointException;
import io.ketama.router.forwarding.channel.RemoteFailure;
import io.ketama.router.forwarding.SpilledException;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.load.FixedLoads;
import io.ketama.router.forwarding.hazelcast.ReleasedFormats.V2Task;
import io.ketama.router.forwarding.hazelcast.ReleasedFormats.V3Task;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Channel version 3 (bounded loads) on the Hazelcast transport: the task carries its spillable flag
 * where a version-2 member never reads it; an owner past its bound spills a spillable task from a
 * member of this release and from an older member that marked it spillable (version 3 or 4), never
 * an older member's plain task; a member of version 3 is sent no task at all (version 5 sends none
 * to an older member).
 */
class HazelcastSpillTest {
    @Test
    void theHazelcastTaskCarriesItsFlagWhereAVersionTwoMemberNeverReadsIt() {
        SerializationService current = new DefaultSerializationServiceBuilder()
                .addDataSerializableFactory(HazelcastForwarding.FACTORY_ID, HazelcastForwarding.factory()).build();
        SerializationService previous = new DefaultSerializationServiceBuilder()
                .addDataSerializableFactory(HazelcastForwarding.FACTORY_ID, type -> new V2Task()).build();
        HazelcastForwardTask spillable = current.toObject(current.toData(new HazelcastForwardTask("k", true)));
        assertThat(spillable.spillable()).isTrue();
        assertThat(current.<HazelcastForwardTask>toObject(current.toData(new HazelcastForwardTask("k", false))).spillable()).isFalse();
        V2Task readByPrevious = previous.toObject(current.toData(new HazelcastForwardTask("k-é", true)));
        assertThat(readByPrevious.key).isEqualTo("k-é");
        V2Task old = new V2Task();
        old.key = "k";
        HazelcastForwardTask fromPrevious = current.toObject(previous.toData(old));
        assertThat(fromPrevious.version()).isEqualTo(2);
        assertThat(fromPrevious.spillable()).as("a version-2 task has no flags").isFalse();
    }

    @Test
    void overHazelcastAnOwnerPastItsBoundSpillsASpillableTask() throws Exception {
        try (LoopbackPeers peers = new LoopbackPeers()) {
            Vertx loops = peers.eventLoops(1);
            HazelcastInstance caller = peers.start(config -> HazelcastForwarding.configure(config, 4, 64));
            ForwardReceiver receiver = new ForwardReceiver();
            io.ketama.router.load.OwnerLoad full = FixedLoads.full();
            receiver.attach(keyServer("owner"), full);
            HazelcastInstance owner = peers.start(config -> {
                HazelcastForwarding.configure(config, 4, 64);
                config.getMemberAttributeConfig().setAttribute(PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION);
            });
            owner.getUserContext().put(ForwardReceiver.USER_CONTEXT_KEY, receiver);
            HazelcastInstance three = peers.start(config -> {
                HazelcastForwarding.configure(config, 4, 64);
                config.getMemberAttributeConfig().setAttribute(PeerEndpoints.CHANNEL_VERSION, "3");
            });
            three.getUserContext().put(ForwardReceiver.USER_CONTEXT_KEY, receiver);
            peers.awaitMembers(3, Duration.ofSeconds(30));
            HazelcastForwardClient client = new HazelcastForwardClient(caller, loops);
            Member ownerMember = owner.getCluster().getLocalMember();
            assertThat(cause(client.forward(ownerMember, "k", true))).isInstanceOf(SpilledException.class);
            assertThat(cause(client.forward(ownerMember, "k", false))).isNull();
            assertThat(new String(client.forward(ownerMember, "k2", false).toCompletableFuture().get(10, TimeUnit.SECONDS)
                    .answer().body(), StandardCharsets.ISO_8859_1)).contains("k2");
            assertThat(full.spilled()).isEqualTo(1);
            assertThat(cause(client.forward(three.getCluster().getLocalMember(), "k3", true))).as("to a member that says 3")
                    .isInstanceOf(NoUsableEndpointException.class).hasMessageContaining("channel version 3");
            assertThat(full.spilled()).as("nothing reached it").isEqualTo(1);

            // an older member's tasks, run here: spilled where it marked them spillable, served where it did not
            SerializationService current = new DefaultSerializationServiceBuilder()
                    .addDataSerializableFactory(HazelcastForwarding.FACTORY_ID, HazelcastForwarding.factory()).build();
            SerializationService previous = new DefaultSerializationServiceBuilder()
                    .addDataSerializableFactory(HazelcastForwarding.FACTORY_ID, type -> new V3Task()).build();
            V3Task spillable = new V3Task();
            spillable.key = "old-k";
            spillable.flags = HazelcastForwardTask.SPILLABLE;
            HazelcastForwardTask task = current.toObject(previous.toData(spillable));
            task.setHazelcastInstance(owner);
            assertThat(task.call().failure()).isEqualTo(RemoteFailure.SPILLED);
            V3Task plain = new V3Task();
            plain.key = "old-k";
            HazelcastForwardTask plainTask = current.toObject(previous.toData(plain));
            plainTask.setHazelcastInstance(owner);
            assertThat(plainTask.call().served().answer().body()).as("served past the bound: a final request")
                    .isEqualTo(io.ketama.router.serving.DemoOrigin.contentFor("old-k"));
            assertThat(full.spilled()).isEqualTo(2);
        }
    }

}
