package io.ketama.quarkus.deployment;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.MemberInfo;
import io.ketama.quarkus.RingSelector;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** An application that produces its own HazelcastInstance gets it instead of the embedded member. */
class OwnHazelcastInstanceTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-own-instance", 1);

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app(jar -> jar.addClass(OwnInstance.class));

    @Inject
    RingSelector selector;
    @Inject
    HazelcastInstance hazelcast;

    @Test
    void theApplicationsInstanceIsUsed() {
        assertThat(hazelcast.getName()).isEqualTo("applications-own");
        assertThat(Hazelcast.getAllHazelcastInstances()).containsExactly(hazelcast); // no embedded member besides
        MemberInfo me = selector.snapshot().members().get(0);
        assertThat(me.member()).isEqualTo(hazelcast.getCluster().getLocalMember());
        assertThat(me.weight()).isEqualTo(5);
        assertThat(me.nodeId()).isEqualTo("own-node");
        assertThat(me.identity()).isEqualTo("own-node");
        assertThat(me.features()).containsExactly("gpu");
        assertThat(me.datacenter()).isEqualTo("own-dc");
        assertThat(selector.isReady()).isTrue();
    }

    @Singleton
    static class OwnInstance {

        @Produces
        @Singleton
        HazelcastInstance hazelcast() {
            return CLUSTER.newMember(0, config -> {
                config.setInstanceName("applications-own");
                MemberAttributes.publish(config, 5, List.of("gpu"), "own-dc", "own-node");
            });
        }

        void close(@Disposes HazelcastInstance instance) {
            instance.shutdown();
        }
    }
}
