package io.ketama.quarkus.runtime;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import io.ketama.core.HashStyle;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.MigrationSettings;
import io.quarkus.runtime.LaunchMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The layers of the embedded member's configuration: Hazelcast's file (or the extension's base),
 * Hazelcast's own overrides ({@code hz.*} system properties, as {@code HZ_*} variables), the
 * {@code quarkus.ketama.hazelcast.*} keys that are set, and the test-mode isolation.
 */
class HazelcastConfigsTest {

    private static final KetamaSettings.HazelcastSettings NO_KEYS =
            new KetamaSettings.HazelcastSettings(null, null, null, null, null, null, null, null, null, null);

    private static KetamaSettings settings(KetamaSettings.HazelcastSettings hazelcast) {
        return new KetamaSettings("default", new RingSettings(HashStyle.PINGORA, 16), 1, List.of(), null, null,
                MigrationSettings.DEFAULT, null, Duration.ofMillis(200), hazelcast);
    }

    private static KetamaSettings.HazelcastSettings file(String clusterName, List<String> members) {
        return new KetamaSettings.HazelcastSettings(clusterName, null, null, members, null, null, null, "layered-hazelcast.yaml", null, null);
    }

    @AfterEach
    void clearOverrides() {
        System.clearProperty("hz.clustername");
        System.clearProperty("hz.network.port.port");
        System.clearProperty(HazelcastConfigs.MAX_NO_HEARTBEAT);
    }

    /**
     * A partitioned member must leave the rings in seconds and a healed partition merge in seconds:
     * 10 s each unless the keys, the Hazelcast file or a system property say otherwise, with a
     * heartbeat every second where the extension sets the failure timeout.
     */
    @Test
    void faultTimingIsTheKeysElseTheFilesOrAPropertyElseTenSeconds() {
        Config defaults = HazelcastConfigs.of(settings(NO_KEYS), LaunchMode.NORMAL);
        assertThat(defaults.getProperty(HazelcastConfigs.MAX_NO_HEARTBEAT)).isEqualTo("10");
        assertThat(defaults.getProperty(HazelcastConfigs.HEARTBEAT_INTERVAL)).isEqualTo("1");
        assertThat(defaults.getProperty(HazelcastConfigs.MASTERSHIP_CLAIM))
                .as("a claim waits for a survivor that suspects a paused master later (issue 40, point 3)").isEqualTo("30");
        assertThat(defaults.getProperty(HazelcastConfigs.MERGE_FIRST_RUN)).isEqualTo("10");
        assertThat(defaults.getProperty(HazelcastConfigs.MERGE_NEXT_RUN)).isEqualTo("10");

        KetamaSettings.HazelcastSettings keys = new KetamaSettings.HazelcastSettings(null, null, null, null, null, null, null, null,
                Duration.ofSeconds(4), Duration.ofSeconds(3));
        Config set = HazelcastConfigs.of(settings(keys), LaunchMode.NORMAL);
        assertThat(set.getProperty(HazelcastConfigs.MAX_NO_HEARTBEAT)).isEqualTo("4");
        assertThat(set.getProperty(HazelcastConfigs.HEARTBEAT_INTERVAL)).isEqualTo("1");
        assertThat(set.getProperty(HazelcastConfigs.MASTERSHIP_CLAIM)).as("never below 30 s").isEqualTo("30");
        assertThat(set.getProperty(HazelcastConfigs.MERGE_FIRST_RUN)).isEqualTo("3");
        assertThat(set.getProperty(HazelcastConfigs.MERGE_NEXT_RUN)).isEqualTo("3");

        KetamaSettings.HazelcastSettings longTimeout = new KetamaSettings.HazelcastSettings(null, null, null, null, null, null, null,
                null, Duration.ofSeconds(45), null);
        assertThat(HazelcastConfigs.of(settings(longTimeout), LaunchMode.NORMAL).getProperty(HazelcastConfigs.MASTERSHIP_CLAIM))
                .as("as long as a longer failure timeout").isEqualTo("45");

        Config fromFile = HazelcastConfigs.of(settings(file(null, null)), LaunchMode.NORMAL);
        assertThat(fromFile.getProperty(HazelcastConfigs.MAX_NO_HEARTBEAT)).as("the file's value stands").isEqualTo("45");
        assertThat(fromFile.getProperty(HazelcastConfigs.HEARTBEAT_INTERVAL)).as("nor is the file's heartbeat changed").isNull();
        assertThat(fromFile.getProperty(HazelcastConfigs.MASTERSHIP_CLAIM)).as("nor its mastership claim").isNull();

        System.setProperty(HazelcastConfigs.MAX_NO_HEARTBEAT, "30");
        Config fromProperty = HazelcastConfigs.of(settings(NO_KEYS), LaunchMode.NORMAL);
        assertThat(fromProperty.getProperties().getProperty(HazelcastConfigs.MAX_NO_HEARTBEAT))
                .as("not set in the configuration: Hazelcast reads the system property").isNull();
    }

    @Test
    void withoutAFileTheBaseJoinsLoopbackAndDevModeHasItsOwnClusterName() {
        Config prod = HazelcastConfigs.of(settings(NO_KEYS), LaunchMode.NORMAL);
        assertThat(prod.getClusterName()).isEqualTo("ketama");
        assertThat(prod.getNetworkConfig().getPort()).isEqualTo(5701);
        JoinConfig join = prod.getNetworkConfig().getJoin();
        assertThat(join.getMulticastConfig().isEnabled()).isFalse();
        assertThat(join.getAutoDetectionConfig().isEnabled()).isFalse();
        assertThat(join.getTcpIpConfig().isEnabled()).isTrue();
        assertThat(join.getTcpIpConfig().getMembers()).containsExactly("127.0.0.1");

        assertThat(HazelcastConfigs.of(settings(NO_KEYS), LaunchMode.DEVELOPMENT).getClusterName()).isEqualTo("ketama-dev");
    }

    @Test
    void hazelcastOverridesBeatTheFileAndSetKeysBeatBoth() {
        Config fileOnly = HazelcastConfigs.of(settings(file(null, null)), LaunchMode.NORMAL);
        assertThat(fileOnly.getClusterName()).isEqualTo("from-file");
        assertThat(fileOnly.getNetworkConfig().getPort()).isEqualTo(21750);
        assertThat(fileOnly.getNetworkConfig().getJoin().getTcpIpConfig().getMembers())
                .containsExactly("127.0.0.1:21750", "127.0.0.1:21751");

        System.setProperty("hz.clustername", "from-override");
        System.setProperty("hz.network.port.port", "21752");
        Config overridden = HazelcastConfigs.of(settings(file(null, null)), LaunchMode.NORMAL);
        assertThat(overridden.getClusterName()).isEqualTo("from-override");
        assertThat(overridden.getNetworkConfig().getPort()).isEqualTo(21752);
        assertThat(overridden.getMapConfig("from-file").getBackupCount()).as("the rest of the file stays").isEqualTo(2);

        Config keyed = HazelcastConfigs.of(settings(file("from-key", List.of("127.0.0.1:21753"))), LaunchMode.NORMAL);
        assertThat(keyed.getClusterName()).isEqualTo("from-key");
        assertThat(keyed.getNetworkConfig().getPort()).as("no port key: the override stands").isEqualTo(21752);
        assertThat(keyed.getNetworkConfig().getJoin().getTcpIpConfig().getMembers()).containsExactly("127.0.0.1:21753");
        assertThat(keyed.getMapConfig("from-file").getBackupCount()).isEqualTo(2);
    }

    @Test
    void aTestMemberFormsAClusterOfItsOwnWhateverTheFileSaysUnlessTheKeysSayOtherwise() {
        System.setProperty("hz.clustername", "ketama");
        Config a = HazelcastConfigs.of(settings(file(null, null)), LaunchMode.TEST);
        Config b = HazelcastConfigs.of(settings(NO_KEYS), LaunchMode.TEST);
        assertThat(a.getClusterName()).startsWith("ketama-test-").isNotEqualTo(b.getClusterName());
        assertThat(b.getClusterName()).startsWith("ketama-test-");
        for (Config c : List.of(a, b)) {
            JoinConfig join = c.getNetworkConfig().getJoin();
            assertThat(join.getTcpIpConfig().getMembers()).as("nobody else to ask").isEmpty();
            assertThat(join.getMulticastConfig().isEnabled()).isFalse();
            assertThat(join.getAutoDetectionConfig().isEnabled()).isFalse();
            assertThat(join.getKubernetesConfig().isEnabled()).isFalse();
            assertThat(c.getNetworkConfig().getInterfaces().getInterfaces()).containsExactly("127.0.0.1");
            assertThat(c.getProperty("hazelcast.socket.bind.any")).isEqualTo("false");
        }

        Config configured = HazelcastConfigs.of(settings(file("shared-test-cluster", List.of("127.0.0.1:21754"))), LaunchMode.TEST);
        assertThat(configured.getClusterName()).isEqualTo("shared-test-cluster");
        assertThat(configured.getNetworkConfig().getJoin().getTcpIpConfig().getMembers()).containsExactly("127.0.0.1:21754");
    }

    @Test
    void theKetamaAttributesAndHousekeepingAreAlwaysAdded() {
        Config c = HazelcastConfigs.of(settings(file(null, null)), LaunchMode.NORMAL);
        assertThat(c.getMemberAttributeConfig().getAttribute(MemberAttributes.WEIGHT)).isEqualTo("1");
        assertThat(c.getMemberAttributeConfig().getAttribute(MemberAttributes.DATACENTER)).isEqualTo("default");
        assertThat(c.getProperty("hazelcast.phone.home.enabled")).isEqualTo("false");
        assertThat(c.getProperty("hazelcast.shutdownhook.enabled")).isEqualTo("false");
        assertThat(c.getClassLoader()).isNotNull();
    }
}
