package io.ketama.quarkus.deployment;

import com.hazelcast.core.HazelcastInstance;
import io.ketama.quarkus.ExcludedMember;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Set;
import java.util.logging.Level;

import static io.ketama.quarkus.deployment.TestCluster.awaitSnapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

/**
 * Members with malformed attributes are left out of the rings, with one warning each (not one
 * per rebuild) and a metric; the others are routed to as usual.
 */
class MalformedAttributesTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-malformed", 7);
    static final String WARNING = "is left out of the rings";

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app("quarkus.ketama.rebuild.coalesce-delay", "20ms")
            .setLogRecordPredicate(r -> r.getLevel().intValue() == Level.WARNING.intValue() && r.getMessage() != null
                    && String.valueOf(r.getLoggerName()).startsWith("io.ketama"))
            .assertLogRecords(records -> assertThat(records)
                    .filteredOn(r -> formatted(r).contains(WARNING))
                    .as("one warning per malformed member, whatever the number of rebuilds")
                    .hasSize(5));

    @Inject
    RingSelector selector;

    @AfterAll
    static void stopMembers() {
        CLUSTER.close();
    }

    @Test
    void malformedMembersAreExcludedOnceWithAReason() {
        HazelcastInstance good = CLUSTER.start(1, 2, Set.of("ssd"), null);
        CLUSTER.startWithRawAttributes(2, MemberAttributes.WEIGHT, "abc");
        CLUSTER.startWithRawAttributes(3, MemberAttributes.WEIGHT, "0");
        CLUSTER.startWithRawAttributes(4, MemberAttributes.WEIGHT, "-1");
        CLUSTER.startWithRawAttributes(5, MemberAttributes.FEATURES, "ssd,,pci");
        CLUSTER.startWithRawAttributes(6, MemberAttributes.DATACENTER, "");
        RingSnapshot s = awaitSnapshot(selector, x -> x.members().size() + x.excluded().size() == 7, "all seven members seen");

        assertThat(s.members()).extracting(m -> m.member().getAddress().getPort()).containsExactlyInAnyOrder(CLUSTER.port(0), CLUSTER.port(1));
        assertThat(s.excluded()).extracting(e -> e.member().getAddress().getPort())
                .containsExactlyInAnyOrder(CLUSTER.port(2), CLUSTER.port(3), CLUSTER.port(4), CLUSTER.port(5), CLUSTER.port(6));
        assertThat(reason(s, CLUSTER.port(2))).isEqualTo("ketama.weight must be an integer from 1 to 1000, was 'abc'");
        assertThat(reason(s, CLUSTER.port(3))).isEqualTo("ketama.weight must be an integer from 1 to 1000, was '0'");
        assertThat(reason(s, CLUSTER.port(4))).isEqualTo("ketama.weight must be an integer from 1 to 1000, was '-1'");
        assertThat(reason(s, CLUSTER.port(5))).startsWith("ketama.features has an empty feature in 'ssd,,pci'");
        assertThat(reason(s, CLUSTER.port(6))).startsWith("ketama.datacenter must be a non-blank data centre name");
        assertThat(selector.isReady()).isTrue();

        // the excluded members are never selected
        for (int i = 0; i < 10_000; i++) {
            int port = selector.select("k" + i).owner().getAddress().getPort();
            assertThat(port).isIn(CLUSTER.port(0), CLUSTER.port(1));
        }

        // another rebuild (a good member leaves) must not warn or count again
        long generation = s.generation();
        CLUSTER.stop(good);
        RingSnapshot after = awaitSnapshot(selector, x -> x.generation() > generation && x.members().size() == 1,
                "the good member's leave rebuilt the rings");
        assertThat(after.excluded()).hasSize(5);
        RestAssured.when().get("/q/metrics").then().statusCode(200)
                .body(containsString("ketama_members_excluded 5.0"))
                .body(containsString("ketama_members_exclusions_total 5.0"));
    }

    private static String reason(RingSnapshot s, int port) {
        return s.excluded().stream().filter(e -> e.member().getAddress().getPort() == port)
                .map(ExcludedMember::reason).findFirst().orElseThrow();
    }

    private static String formatted(java.util.logging.LogRecord r) {
        Object[] params = r.getParameters();
        return params == null ? r.getMessage() : String.format(r.getMessage(), params);
    }
}
