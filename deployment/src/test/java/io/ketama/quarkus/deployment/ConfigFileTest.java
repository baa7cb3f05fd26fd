package io.ketama.quarkus.deployment;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.RingSelector;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Hazelcast configuration file is the base of the embedded member: the quarkus.ketama.hazelcast.*
 * keys that are set are laid over it, what they leave alone stays as the file says, and the ketama
 * attributes are added.
 */
class ConfigFileTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addAsResource("ketama-test-hazelcast.yaml"))
            .overrideConfigKey("quarkus.ketama.hazelcast.config-file", "ketama-test-hazelcast.yaml")
            .overrideConfigKey("quarkus.ketama.hazelcast.cluster-name", "ketama-config-file-key")
            .overrideConfigKey("quarkus.ketama.member.weight", "3")
            .overrideConfigKey("quarkus.ketama.member.features", "pci, ssd")
            .overrideConfigKey("quarkus.ketama.datacenter", "fra")
            .overrideConfigKey("quarkus.log.category.\"com.hazelcast\".level", "WARN")
            .overrideConfigKey("quarkus.http.test-port", "0");

    @Inject
    HazelcastInstance hazelcast;
    @Inject
    RingSelector selector;

    @Test
    void theKeysAreLaidOverTheFileAndTheAttributesAreAdded() {
        assertThat(hazelcast.getConfig().getClusterName()).as("set by a key").isEqualTo("ketama-config-file-key");
        Member me = hazelcast.getCluster().getLocalMember();
        assertThat(me.getAddress().getPort()).as("from the file").isEqualTo(5838);
        assertThat(hazelcast.getConfig().getMapConfig("from-file").getBackupCount()).as("from the file").isEqualTo(2);
        assertThat(me.getAttribute(MemberAttributes.WEIGHT)).isEqualTo("3");
        assertThat(me.getAttribute(MemberAttributes.FEATURES)).isEqualTo("pci,ssd");
        assertThat(me.getAttribute(MemberAttributes.DATACENTER)).isEqualTo("fra");
        assertThat(me.getAttribute(MemberAttributes.NODE_ID)).isNull();
        assertThat(hazelcast.getConfig().getProperty("hazelcast.phone.home.enabled")).isEqualTo("false");
        assertThat(hazelcast.getConfig().getClassLoader()).isNotNull();
        assertThat(selector.isReady()).isTrue();
        assertThat(selector.snapshot().members().get(0).weight()).isEqualTo(3);
    }
}
