package io.ketama.quarkus.deployment;

import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSettings.Mode;
import io.ketama.quarkus.RingSelector;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Set;
import java.util.SplittableRandom;

import static io.ketama.quarkus.deployment.TestCluster.await;
import static io.ketama.quarkus.deployment.TestCluster.awaitSnapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * {@code /q/ketama/ramp} on the management interface: a guarded ramp steps the cluster's v2 share on
 * schedule, and its brake holds on the application's real shadow selections when the next step
 * would cost too many cache misses; holds are counted in the metrics. Its PUT and DELETE take the
 * migration's {@code If-Match}, and its answers carry the migration's {@code ETag}.
 */
class RampAdminTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-ramp-admin", 3);
    static final String TOKEN = "ramp-admin-test-token-0123456789";
    static final String RAMP = "/q/ketama/ramp";
    static final String MIGRATION = "/q/ketama/migration";

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app(
            "quarkus.management.enabled", "true",
            "quarkus.management.test-port", "0", // any free port
            "quarkus.management.host", "127.0.0.1",
            "quarkus.ketama.admin.token", TOKEN,
            "quarkus.ketama.migration.mode", "split",
            "quarkus.ketama.migration.shadow", "true");

    @Inject
    RingSelector selector;

    @AfterAll
    static void stopMembers() {
        CLUSTER.close();
    }

    private static RequestSpecification admin() {
        return RestAssured.given().port(TestCluster.managementPort());
    }

    private static RequestSpecification authorized() {
        return admin().header("Authorization", "Bearer " + TOKEN).contentType("application/json");
    }

    private static JsonPath status() {
        return admin().get(RAMP).then().statusCode(200).extract().jsonPath();
    }

    @Test
    void aRampStepsTheClusterOnScheduleAndOnlyWithTheToken() {
        admin().contentType("application/json").body("{\"steps\":[1,10],\"intervalSeconds\":1}").put(RAMP).then().statusCode(401);
        authorized().body("{\"steps\":[1,10],\"intervalSeconds\":1}").put(RAMP).then().statusCode(200)
                .body("phase", equalTo("running"))
                .body("stepsTaken", equalTo(1));
        await(() -> status().getString("phase"), "done"::equals, TestCluster.DEADLINE, "the ramp done");
        assertThat(selector.migration().settings().v2SharePercent()).isEqualTo(10);
        assertThat(selector.migration().changedBy()).startsWith("ramp started by admin 127.0.0.1:");
        assertThat(status().getInt("counts.steps")).isGreaterThanOrEqualTo(2);
    }

    @Test
    void theBrakeHoldsOnTheApplicationsOwnShadowSelections() {
        CLUSTER.start(1, 1, Set.of(), null);
        CLUSTER.start(2, 2, Set.of(), null);
        awaitSnapshot(selector, s -> s.members().size() == 3, "three members on the rings");
        selector.updateMigration(new MigrationSettings(Mode.SPLIT, 0, true));
        long holdsBefore = status().getLong("counts.holds");

        // 0 -> 1 % now; 1 -> 100 % next, which would move far more than 5 % of the requests
        authorized().body("{\"steps\":[1,100],\"intervalSeconds\":5,\"maxPredictedMissPercent\":5,\"minSamples\":1000}")
                .put(RAMP).then().statusCode(200).body("phase", equalTo("running"));
        SplittableRandom random = new SplittableRandom(7);
        byte[] key = new byte[20];
        for (int i = 0; i < 50_000; i++) {
            random.nextBytes(key);
            selector.select(key);
        }
        await(() -> status().getString("phase"), "held"::equals, TestCluster.DEADLINE, "the brake to hold");
        JsonPath held = status();
        assertThat(held.getString("event")).contains("would miss about").contains("limit 5.0 %");
        assertThat(held.getLong("counts.holds")).isEqualTo(holdsBefore + 1);
        assertThat(selector.migration().settings().v2SharePercent()).isEqualTo(1); // held where it was
        admin().get("/q/metrics").then().statusCode(200).body(containsString("ketama_ramp_holds_total " + (holdsBefore + 1) + ".0"));
    }

    @Test
    void badPlansAre400AndARunningRampIsOneAtATime() {
        for (String bad : new String[] {"{\"steps\":[10,5],\"intervalSeconds\":1}", "{\"steps\":[1],\"intervalSeconds\":0}",
                "{\"steps\":\"1,10\",\"intervalSeconds\":1}", "{\"steps\":[1],\"intervalSeconds\":1,\"rollback\":true}",
                "{\"steps\":[1],\"intervalSeconds\":1,\"speed\":2}", "not json"}) {
            authorized().body(bad).put(RAMP).then().statusCode(400)
                    .body("type", equalTo("urn:ketama:problem:invalid-ramp"));
        }
        await(() -> status().getString("phase"), p -> !p.equals("running"), TestCluster.DEADLINE, "no ramp running");
        authorized().delete(RAMP).then().statusCode(409).body("type", equalTo("urn:ketama:problem:no-ramp"));
        authorized().body("{\"steps\":[2,3],\"intervalSeconds\":600}").put(RAMP).then().statusCode(200);
        authorized().body("{\"steps\":[4],\"intervalSeconds\":600}").put(RAMP).then().statusCode(409)
                .body("type", equalTo("urn:ketama:problem:ramp-running"));
        admin().delete(RAMP).then().statusCode(401);
        authorized().delete(RAMP).then().statusCode(200).body("phase", equalTo("cancelled"));
        assertThat(selector.migration().settings().v2SharePercent()).isEqualTo(2);
    }

    @Test
    void theMigrationsETagConditionsTheRampAndTheRampAnswersWithIt() {
        await(() -> status().getString("phase"), p -> !p.equals("running"), TestCluster.DEADLINE, "no ramp running");
        try {
            String read = admin().get(MIGRATION).then().statusCode(200).extract().header("ETag");
            authorized().body("{\"shadow\":true}").put(MIGRATION).then().statusCode(200); // another admin, after that read

            authorized().header("If-Match", read).body("{\"steps\":[3,4],\"intervalSeconds\":600}").put(RAMP).then()
                    .statusCode(412)
                    .body("type", equalTo("urn:ketama:problem:generation-conflict"))
                    .body("detail", containsString("no ramp was started"));
            assertThat(status().getString("phase")).isNotEqualTo("running");

            String now = admin().get(MIGRATION).then().statusCode(200).extract().header("ETag");
            admin().get(RAMP).then().statusCode(200).header("ETag", now);
            String started = authorized().header("If-Match", now).body("{\"steps\":[3,4],\"intervalSeconds\":600}").put(RAMP).then()
                    .statusCode(200)
                    .body("phase", equalTo("running"))
                    .extract().header("ETag");
            assertThat(started).isEqualTo("\"" + selector.migration().generation() + "\"");
            admin().get(MIGRATION).then().statusCode(200).header("ETag", started);
            authorized().header("If-Match", started).delete(RAMP).then().statusCode(200)
                    .body("phase", equalTo("cancelled"))
                    .header("ETag", started);
        } finally {
            // a ramp this test left running (it failed midway) would make the others' PUTs 409s
            if ("running".equals(status().getString("phase"))) {
                authorized().delete(RAMP);
            }
        }
    }
}
