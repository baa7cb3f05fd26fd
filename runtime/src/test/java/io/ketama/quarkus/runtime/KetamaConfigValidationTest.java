package io.ketama.quarkus.runtime;

import io.ketama.quarkus.KetamaConfig;
import io.ketama.quarkus.KetamaConfigCheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarkus.runtime.configuration.ConfigurationException;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Start-up validation of {@code quarkus.ketama.*} as the pure function it is: the configuration
 * is read through SmallRye Config into the extension's own {@link KetamaConfig} mapping (as the
 * application reads it), then checked by {@link KetamaSettings#from}. One Quarkus boot in the
 * deployment module (SeveralInvalidSettingsTest) proves that start-up runs this check and stops.
 */
class KetamaConfigValidationTest {

    /** The mapping read from {@code keyValues} (key, value, ...) over the mapping's defaults. */
    static KetamaConfig config(String... keyValues) {
        Map<String, String> properties = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            properties.put(keyValues[i], keyValues[i + 1]);
        }
        return new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(properties, "test", 260))
                .withConverter(Duration.class, 200, new DurationConverter())
                .withMapping(KetamaConfig.class)
                .build()
                .getConfigMapping(KetamaConfig.class);
    }

    @Test
    void theDefaultsAreValid() {
        assertThat(KetamaConfigCheck.problems(config())).isEmpty();
        KetamaSettings s = KetamaSettings.from(config());
        assertThat(s.weight()).isEqualTo(1);
        assertThat(s.features()).isEmpty();
    }

    /** Each row: key, value, the whole message start-up gives for it. */
    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', textBlock = """
            quarkus.ketama.rebuild.coalesce-delay | 2m                  | quarkus.ketama.rebuild.coalesce-delay must be from 0 to 60s (e.g. 200ms), was PT2M
            quarkus.ketama.v2.points-per-weight   | 0                   | quarkus.ketama.v2.points-per-weight must be an integer from 1 to 1000000, was 0
            quarkus.ketama.v2.points-per-weight   | 1000001             | quarkus.ketama.v2.points-per-weight must be an integer from 1 to 1000000, was 1000001
            quarkus.ketama.hazelcast.port         | 70000               | quarkus.ketama.hazelcast.port must be from 1 to 65535, was 70000
            quarkus.ketama.migration.v2-share     | 150                 | quarkus.ketama.migration.v2-share must be a percentage from 0 to 100 (decimals allowed), was 150.0
            quarkus.ketama.migration.v2-share     | -0.5                | quarkus.ketama.migration.v2-share must be a percentage from 0 to 100 (decimals allowed), was -0.5
            quarkus.ketama.member.weight          | 0                   | quarkus.ketama.member.weight must be an integer from 1 to 1000, was '0'
            quarkus.ketama.member.weight          | 1001                | quarkus.ketama.member.weight must be an integer from 1 to 1000, was '1001'
            quarkus.ketama.hazelcast.members      | 127.0.0.1:5701-5703 | quarkus.ketama.hazelcast.members entry '127.0.0.1:5701-5703' is a port range, which Hazelcast rejects; allowed: host or host:port (IPv6 as [addr]:port), listed one by one
            quarkus.ketama.hazelcast.config-file  | /nonexistent/hazelcast.yaml | quarkus.ketama.hazelcast.config-file '/nonexistent/hazelcast.yaml' is neither a readable file nor a class-path resource
            quarkus.ketama.hazelcast.failure-timeout | 2s               | quarkus.ketama.hazelcast.failure-timeout must be whole seconds from 3s to 600s (e.g. 10s), was PT2S
            quarkus.ketama.hazelcast.failure-timeout | 4500ms           | quarkus.ketama.hazelcast.failure-timeout must be whole seconds from 3s to 600s (e.g. 10s), was PT4.5S
            quarkus.ketama.hazelcast.merge-interval  | 0s               | quarkus.ketama.hazelcast.merge-interval must be whole seconds from 1s to 600s (e.g. 10s), was PT0S
            quarkus.ketama.hazelcast.merge-interval  | 11m              | quarkus.ketama.hazelcast.merge-interval must be whole seconds from 1s to 600s (e.g. 10s), was PT11M
            quarkus.ketama.migration.revision        | 0                | quarkus.ketama.migration.revision must be a whole number from 1 (e.g. the version of the configuration that sets the migration keys) when set, was 0
            quarkus.ketama.migration.min-members     | 0                | quarkus.ketama.migration.min-members must be at least 1 (a majority of the cluster's members, e.g. 3 of 5, to keep changes made on the smaller side of a network partition from being acknowledged), was 0
            quarkus.ketama.migration.forget-failed-after | 30s          | quarkus.ketama.migration.forget-failed-after must be from 1m to 30d (longer than the network partitions the cluster must ride out, e.g. 1h), was PT30S
            quarkus.ketama.migration.forget-failed-after | 31d          | quarkus.ketama.migration.forget-failed-after must be from 1m to 30d (longer than the network partitions the cluster must ride out, e.g. 1h), was PT744H
            """)
    void anInvalidValueIsOneProblemNamingTheKeyTheValueAndWhatIsAllowed(String key, String value, String message) {
        assertThat(KetamaConfigCheck.problems(config(key, value))).containsExactly(message);
        assertThatThrownBy(() -> KetamaSettings.from(config(key, value)))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("Invalid ketama configuration:\n - " + message);
    }

    /** Issue 40: no {@code min-members} unless set (the quorum is then learned), and failed members forgotten after an hour. */
    @Test
    void minMembersIsUnsetByDefaultAndWinsWhenSet() {
        ClusterSettings defaults = ClusterSettings.from(config());
        assertThat(defaults.minMembers()).isEmpty();
        assertThat(defaults.forgetFailedAfter()).isEqualTo(Duration.ofHours(1)).isEqualTo(ClusterRings.FORGET_FAILED_AFTER);
        assertThat(ClusterSettings.from(config("quarkus.ketama.migration.min-members", "1")).minMembers()).hasValue(1);
        assertThat(ClusterSettings.from(config("quarkus.ketama.migration.forget-failed-after", "10m")).forgetFailedAfter())
                .isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void anEmptyFeatureNamesTheKeyAndTheTagGrammar() {
        assertThat(KetamaConfigCheck.problems(config("quarkus.ketama.member.features", "ssd,,pci"))).singleElement().asString()
                .startsWith("quarkus.ketama.member.features has an empty feature in 'ssd,,pci'; allowed: comma-separated non-empty tags");
        assertThat(KetamaConfigCheck.problems(config("quarkus.ketama.member.features", "ssd,a b"))).singleElement().asString()
                .startsWith("quarkus.ketama.member.features has feature 'a b' that has a character that is not allowed");
    }

    @Test
    void everyInvalidKeyIsReportedAtOnce() {
        assertThat(KetamaConfigCheck.problems(config("quarkus.ketama.migration.v2-share", "150", "quarkus.ketama.hazelcast.port", "0",
                "quarkus.ketama.member.weight", "-1"))).containsExactlyInAnyOrder(
                "quarkus.ketama.migration.v2-share must be a percentage from 0 to 100 (decimals allowed), was 150.0",
                "quarkus.ketama.hazelcast.port must be from 1 to 65535, was 0",
                "quarkus.ketama.member.weight must be an integer from 1 to 1000, was '-1'");
    }

    @Test
    void aGuessableAdminTokenAndANegativeDrainAreRefusedWithoutShowingTheToken() {
        assertThatThrownBy(() -> ClusterSettings.from(config("quarkus.ketama.admin.token", "secret", "quarkus.ketama.drain.timeout", "-1s")))
                .isInstanceOf(ConfigurationException.class)
                .hasMessage("Invalid ketama configuration:\n"
                        + " - quarkus.ketama.admin.token must be at least 16 printable ASCII characters without spaces"
                        + " (e.g. from `openssl rand -hex 24`), was 6 characters\n"
                        + " - quarkus.ketama.drain.timeout must be from 0 to 10m (e.g. 10s), was PT-1S")
                .message().doesNotContain("secret");
        assertThat(ClusterSettings.from(config("quarkus.ketama.admin.token", "0123456789abcdef"))).isNotNull();
    }

    @Test
    void aMemberAllowlistEntryThatIsNoAddressIsRefusedAndTheCheckToolsSeeTheClusterKeysToo() {
        assertThat(KetamaConfigCheck.problems(config("quarkus.ketama.hazelcast.member-allowlist", "10.0.1.*,10.0.0.0/8",
                "quarkus.ketama.admin.token", "secret"))).containsExactlyInAnyOrder(
                "quarkus.ketama.admin.token must be at least 16 printable ASCII characters without spaces"
                        + " (e.g. from `openssl rand -hex 24`), was 6 characters",
                "quarkus.ketama.hazelcast.member-allowlist entry '10.0.0.0/8' is not allowed; allowed: an IPv4 address, with * for a"
                        + " whole octet (10.0.1.*), or an IPv6 address");
        assertThat(ClusterSettings.from(config("quarkus.ketama.hazelcast.member-allowlist", "10.0.1.*, 192.168.7.9, ::1"))
                .memberAllowlist()).hasToString("10.0.1.*,192.168.7.9,::1");
    }

    /**
     * Values the mapping cannot convert stop start-up before validation, in SmallRye Config's words
     * (Quarkus reads the runtime mapping through the same library). Each row: key, value, texts the
     * failure must contain, separated by {@code ;}.
     */
    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', textBlock = """
            quarkus.ketama.hash-style     | ketama | quarkus.ketama.hash-style with the config value "ketama"; allowed values: ; nginx; pingora; spymemcached; spymemcached-weighted; hashring
            quarkus.ketama.migration.mode | v3     | quarkus.ketama.migration.mode with the config value "v3"; allowed values: split,v1,v2
            quarkus.ketama.member.weight  | abc    | quarkus.ketama.member.weight; "abc"; Expected an integer value
            """)
    void anUnconvertibleValueIsRefusedByTheMapping(String key, String value, String expected) {
        assertThatThrownBy(() -> config(key, value)).satisfies(e -> {
            String messages = messages(e);
            for (String text : expected.split(";")) {
                assertThat(messages).contains(text.strip());
            }
        });
    }

    private static String messages(Throwable t) {
        StringBuilder out = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            out.append(c.getClass().getName()).append(": ").append(c.getMessage()).append('\n');
            if (c instanceof io.smallrye.config.ConfigValidationException v) {
                for (int i = 0; i < v.getProblemCount(); i++) {
                    out.append(v.getProblem(i).getMessage()).append('\n');
                }
            }
        }
        return out.toString();
    }

    @Test
    void theKetamaFamilysOptionsAreCheckedAgainstTheStyleAndTheListIndexForRange() {
        assertThat(KetamaConfigCheck.problems(config("quarkus.ketama.hash-style", "twemproxy-md5", "quarkus.ketama.hash-tag", "{"))).containsExactly(
                "quarkus.ketama.hash-tag: a hash tag is two ASCII characters, as twemproxy's hash_tag; was '{'");
        assertThat(KetamaConfigCheck.problems(config("quarkus.ketama.hash-style", "dubbo", "quarkus.ketama.hash-tag", "{}")))
                .singleElement().asString().startsWith("quarkus.ketama.hash-tag is set, but a hash tag goes only with twemproxy-fnv1a-64 and twemproxy-md5");
        assertThat(KetamaConfigCheck.problems(config("quarkus.ketama.hash-style", "twemproxy-fnv1a-64", "quarkus.ketama.hash-nodes", "50")))
                .singleElement().asString().startsWith("quarkus.ketama.hash-nodes is set, but hash.nodes goes only with dubbo");
        assertThat(KetamaConfigCheck.problems(config("quarkus.ketama.hash-style", "dubbo", "quarkus.ketama.hash-nodes", "2"))).containsExactly(
                "quarkus.ketama.hash-nodes: hash.nodes must be an integer from 4 to 1000000, was 2");
        assertThat(KetamaConfigCheck.problems(config("quarkus.ketama.member.list-index", "-1"))).containsExactly(
                "quarkus.ketama.member.list-index must be a whole number from 0 to 1000000 (the member's place in the clients' server list, "
                        + "from 0), was '-1'");

        KetamaSettings twemproxy = KetamaSettings.from(config("quarkus.ketama.hash-style", "twemproxy-fnv1a-64", "quarkus.ketama.hash-tag", "{}",
                "quarkus.ketama.member.list-index", "3"));
        assertThat(twemproxy.ring().hashOptions().hashTag()).isEqualTo("{}");
        assertThat(twemproxy.listIndex()).isEqualTo(3);
        assertThat(KetamaSettings.from(config("quarkus.ketama.hash-style", "dubbo", "quarkus.ketama.hash-nodes", "50")).ring().hashOptions()
                .hashNodes()).isEqualTo(50);
    }
}
