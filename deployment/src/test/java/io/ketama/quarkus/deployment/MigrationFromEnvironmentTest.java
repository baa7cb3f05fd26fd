package io.ketama.quarkus.deployment;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSettings.Mode;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.Selection;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Set;
import java.util.SplittableRandom;

import static io.ketama.quarkus.deployment.TestCluster.awaitSnapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * The migration share comes from an environment variable, selections follow it key by key, and
 * stepping it at run time (as the admin endpoint does) is sticky and monotone over 100,000 keys.
 */
class MigrationFromEnvironmentTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-migration-env", 3);
    static final int KEYS = 100_000;

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app(
            jar -> jar.addClass(FakeEnvironment.class).addAsServiceProvider(ConfigSource.class, FakeEnvironment.class),
            // the same key in application.properties form loses to the environment
            "quarkus.ketama.migration.v2-share", "5");

    @Inject
    RingSelector selector;
    @Inject
    HazelcastInstance hazelcast;

    @AfterAll
    static void stopMembers() {
        CLUSTER.close();
    }

    @Test
    void theEnvironmentSetsTheShareAndSelectionsFollowIt() {
        assertThat(selector.migration().settings()).isEqualTo(new MigrationSettings(Mode.SPLIT, 37.5, true));
        assertThat(io.restassured.RestAssured.get("/q/metrics").then().statusCode(200).extract().asString())
                .as("the share as a Prometheus ratio").contains("ketama_migration_v2_share_ratio{member=\"127.0.0.1:"
                        + hazelcast.getCluster().getLocalMember().getAddress().getPort() + "\"} 0.375");
        RingSnapshot s = threeMembers();
        String[] keys = keys();
        int onV2 = 0;
        for (String key : keys) {
            Selection sel = selector.select(key);
            assertThat(sel.owner()).isEqualTo(s.ring(sel.version()).locate(key).payload());
            onV2 += sel.version() == RingVersion.V2 ? 1 : 0;
        }
        assertWithinBinomial(onV2, 0.375);
    }

    @Test
    void steppingTheShareIsStickyAndMonotone() {
        MigrationSettings start = selector.migration().settings();
        RingSnapshot s = threeMembers();
        String[] keys = keys();
        boolean[] onV2 = new boolean[KEYS];
        try {
            for (double share : new double[] {0, 0.01, 1, 10, 37.5, 50, 99.99, 100}) {
                selector.updateMigration(new MigrationSettings(Mode.SPLIT, share, false));
                int count = 0;
                for (int i = 0; i < KEYS; i++) {
                    Selection first = selector.select(keys[i]);
                    Selection again = selector.select(keys[i]);
                    boolean v2 = first.version() == RingVersion.V2;
                    if (again.version() != first.version() || !again.owner().equals(first.owner())) {
                        fail("key " + keys[i] + " is not sticky at " + share + " %");
                    }
                    if (onV2[i] && !v2) {
                        fail("key " + keys[i] + " went back to v1 when the share rose to " + share + " %");
                    }
                    if (!first.owner().equals(s.ring(first.version()).locate(keys[i]).payload())) {
                        fail("key " + keys[i] + " was not served by the owner on its ring version");
                    }
                    onV2[i] = v2;
                    count += v2 ? 1 : 0;
                }
                assertWithinBinomial(count, share / 100);
            }
            // roll back: one setting, every key on v1 again
            selector.updateMigration(new MigrationSettings(Mode.V1, 100, false));
            for (String key : keys) {
                assertThat(selector.select(key).version()).isEqualTo(RingVersion.V1);
            }
            assertThatThrownBy(() -> new MigrationSettings(Mode.SPLIT, 150, false))
                    .hasMessageContaining("quarkus.ketama.migration.v2-share must be a percentage from 0 to 100");
        } finally {
            selector.updateMigration(start);
        }
    }

    private RingSnapshot threeMembers() {
        if (hazelcast.getCluster().getMembers().size() < 3) {
            CLUSTER.start(1, 1, Set.of(), null);
            CLUSTER.start(2, 2, Set.of(), null);
        }
        RingSnapshot s = awaitSnapshot(selector, x -> x.members().size() == 3, "three members on the rings");
        // with three members the two rings disagree on many keys, so following the version matters
        int differ = 0;
        for (String key : keys()) {
            Member a = s.ring(RingVersion.V1).locate(key).payload();
            Member b = s.ring(RingVersion.V2).locate(key).payload();
            differ += a.equals(b) ? 0 : 1;
        }
        assertThat(differ).isGreaterThan(KEYS / 20);
        return s;
    }

    private static String[] keys() {
        SplittableRandom random = new SplittableRandom(2024);
        String[] keys = new String[KEYS];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = "/assets/" + Long.toHexString(random.nextLong()) + ".js";
        }
        return keys;
    }

    private static void assertWithinBinomial(int count, double p) {
        double sigma = Math.sqrt(KEYS * p * (1 - p));
        assertThat((double) count).as("keys on v2 at %s", p).isBetween(KEYS * p - 5 * sigma - 1, KEYS * p + 5 * sigma + 1);
    }
}
