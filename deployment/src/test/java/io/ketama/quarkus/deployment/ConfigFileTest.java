package io.ketama.quarkus.deployment;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.RingSelector;
import io.ketama.testing.FreePorts;
import io.ketama.testing.LoopbackHazelcast;
import io.quarkus.test.QuarkusUnitTest;
import org.jboss.shrinkwrap.api.asset.StringAsset;
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

    /** The member's port, written into the file: chosen at run time, the same in both copies of this class. */
    static final int PORT = FreePorts.shared(LoopbackHazelcast.clusterName("ketama-config-file"), 1).get(0);

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addAsResource(new StringAsset(hazelcastFile()), "ketama-test-hazelcast.yaml"))
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
        assertThat(me.getAddress().getPort()).as("from the file").isEqualTo(PORT);
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

    /** Hazelcast's own file for this test, on {@link #PORT}. */
    private static String hazelcastFile() {
        return """
            hazelcast:
              cluster-name: ketama-config-file
              map:
                from-file:
                  backup-count: 2
              properties:
                hazelcast.phone.home.enabled: false
              network:
                port:
                  port: %1$d
                  auto-increment: false
                interfaces:
                  enabled: true
                  interfaces:
                    - 127.0.0.1
                join:
                  multicast:
                    enabled: false
                  auto-detection:
                    enabled: false
                  tcp-ip:
                    enabled: true
                    member-list:
                      - 127.0.0.1:%1$d
            """.formatted(PORT);
    }
}
