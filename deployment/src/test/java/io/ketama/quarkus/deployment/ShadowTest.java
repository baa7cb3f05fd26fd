package io.ketama.quarkus.deployment;

import com.hazelcast.cluster.Member;
import io.ketama.core.RingDiff;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.ketama.quarkus.deployment.TestCluster.awaitSnapshot;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * In shadow mode the disagreements counted on live selections predict the exact share of keys a
 * switch from v1 to v2 would move, as {@link RingDiff} computes it over the whole hash space.
 */
class ShadowTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-shadow", 4);
    static final int KEYS = 200_000;

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app(
            "quarkus.ketama.migration.mode", "v1",
            "quarkus.ketama.migration.shadow", "true");

    @Inject
    RingSelector selector;

    @AfterAll
    static void stopMembers() {
        CLUSTER.close();
    }

    @Test
    void shadowDisagreementsMatchTheExactDiffOfTheRings() {
        CLUSTER.start(1, 1, Set.of(), null);
        CLUSTER.start(2, 2, Set.of(), null);
        CLUSTER.start(3, 1, Set.of(), "edge-4");
        RingSnapshot s = awaitSnapshot(selector, x -> x.members().size() == 4, "four members on the rings");
        double exact = RingDiff.compare(s.ring(RingVersion.V1), s.ring(RingVersion.V2)).movedFraction();

        double selectionsBefore = metric("ketama_shadow_selections_total");
        double disagreementsBefore = metric("ketama_shadow_disagreements_total");
        SplittableRandom random = new SplittableRandom(99);
        byte[] key = new byte[24];
        int direct = 0;
        for (int i = 0; i < KEYS; i++) {
            random.nextBytes(key);
            Member served = selector.select(key).owner();
            Member other = s.ring(RingVersion.V2).locate(key).payload();
            direct += served.equals(other) ? 0 : 1;
        }
        double selections = metric("ketama_shadow_selections_total") - selectionsBefore;
        double disagreements = metric("ketama_shadow_disagreements_total") - disagreementsBefore;

        assertThat(selections).isEqualTo(KEYS);
        assertThat(disagreements).isEqualTo(direct); // the counter counts exactly the keys whose owners differ
        double sigma = Math.sqrt(KEYS * exact * (1 - exact));
        assertThat(disagreements).as("disagreements against the exact moved fraction %s", exact)
                .isBetween(KEYS * exact - 5 * sigma, KEYS * exact + 5 * sigma);
        assertThat(exact).isBetween(0.05, 0.95); // the rings really differ: the comparison is not vacuous
    }

    private static double metric(String name) {
        String body = RestAssured.when().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "(?:\\{[^}]*\\})? ([0-9.eE+-]+)$").matcher(body);
        assertThat(m.find()).as("metric %s in /q/metrics", name).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
