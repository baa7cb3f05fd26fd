package io.ketama.quarkus.deployment;

import com.hazelcast.config.Config;
import com.hazelcast.config.ExecutorConfig;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.quarkus.HazelcastConfigCustomizer;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.RingSelector;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** An application bean changes the member's configuration before it starts; the extension's own attributes still win. */
class ConfigCustomizerTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-customizer", 1);

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app(jar -> jar.addClass(AppCustomizer.class),
            "quarkus.ketama.member.weight", "2");

    @Singleton
    static class AppCustomizer implements HazelcastConfigCustomizer {
        @Override
        public void customize(Config config) {
            config.getMemberAttributeConfig().setAttribute("app.channel-port", "18123");
            config.getMemberAttributeConfig().setAttribute(MemberAttributes.WEIGHT, "7");
            config.addExecutorConfig(new ExecutorConfig("app-executor").setPoolSize(3).setQueueCapacity(64));
        }
    }

    @Inject
    HazelcastInstance hazelcast;
    @Inject
    RingSelector selector;

    @Test
    void theCustomizerRanBeforeTheMemberStarted() {
        assertThat(hazelcast.getCluster().getLocalMember().getAttribute("app.channel-port")).isEqualTo("18123");
        assertThat(hazelcast.getConfig().getExecutorConfig("app-executor").getPoolSize()).isEqualTo(3);
        assertThat(hazelcast.getConfig().getExecutorConfig("app-executor").getQueueCapacity()).isEqualTo(64);
    }

    @Test
    void theExtensionsAttributesHoldWhatItsConfigurationSays() {
        assertThat(hazelcast.getCluster().getLocalMember().getAttribute(MemberAttributes.WEIGHT)).isEqualTo("2");
        assertThat(selector.snapshot().members().get(0).weight()).isEqualTo(2);
    }
}
