package io.ketama.quarkus.deployment;

import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.runtime.MemberPart;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

/**
 * The learned quorum on the admin plane (issue 40), with no {@code min-members} set: {@code GET
 * /q/ketama/migration} and {@code GET /q/ketama/quorum} show the members the cluster expects, those
 * seen and those a change needs; a member that crashed still counts, so the one left refuses a change
 * (503 {@code too-few-members}) until an operator removes the crashed one with the guarded
 * {@code DELETE /q/ketama/quorum?member=}, which refuses a member that is there.
 */
class LearnedQuorumAdminPlaneTest {

    static final String TOKEN = "learned-quorum-admin-test-token-0123";
    private static final TestCluster CLUSTER = new TestCluster("ketama-learned-admin", 2);

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app(
            "quarkus.management.enabled", "true",
            "quarkus.management.test-port", "0", // any free port
            "quarkus.management.host", "127.0.0.1",
            "quarkus.ketama.admin.token", TOKEN);

    @Inject
    RingSelector selector;

    private static RequestSpecification admin() {
        return RestAssured.given().port(TestCluster.managementPort()).header("Authorization", "Bearer " + TOKEN);
    }

    @Test
    void aCrashedMemberCountsUntilAnOperatorRemovesIt() {
        RestAssured.given().port(TestCluster.managementPort()).get("/q/ketama/migration").then().statusCode(200)
                .body("quorum.rule", equalTo("learned"))
                .body("quorum.expectedMembers", equalTo(1))
                .body("quorum.requiredMembers", equalTo(1));

        MemberPart other = CLUSTER.startRunning(1, MigrationSettings.DEFAULT);
        TestCluster.await(() -> RestAssured.given().port(TestCluster.managementPort()).get("/q/ketama/quorum").jsonPath().getInt("seenMembers"),
                seen -> seen == 2, Duration.ofSeconds(30), "two members expected and seen");
        CLUSTER.crash(other);
        TestCluster.await(() -> selector.snapshot().members().size(), n -> n == 1, Duration.ofSeconds(60), "the crashed member dropped");
        TestCluster.await(() -> RestAssured.given().port(TestCluster.managementPort()).get("/q/ketama/quorum").jsonPath().getInt("seenMembers"),
                seen -> seen == 1, Duration.ofSeconds(30), "one member seen");

        RestAssured.given().port(TestCluster.managementPort()).get("/q/ketama/migration").then().statusCode(200)
                .body("quorum.rule", equalTo("learned"))
                .body("quorum.expectedMembers", equalTo(2))
                .body("quorum.seenMembers", equalTo(1))
                .body("quorum.requiredMembers", equalTo(2))
                .body("quorum.refusing", equalTo(true));
        // the oldest member (the application's) notes since when it is missing at its next look, within a second
        TestCluster.await(() -> RestAssured.given().port(TestCluster.managementPort()).get("/q/ketama/quorum").jsonPath()
                        .getString("expected.find { it.member == '" + CLUSTER.address(1) + "' }.missingSince"),
                since -> since != null, Duration.ofSeconds(30), "the crashed member noted missing");
        RestAssured.given().port(TestCluster.managementPort()).get("/q/ketama/quorum").then().statusCode(200)
                .body("expected.member", hasItem(CLUSTER.address(1)));
        admin().contentType("application/json").body("{\"mode\":\"split\",\"v2SharePercent\":10}").put("/q/ketama/migration").then()
                .statusCode(503)
                .header("Retry-After", "5")
                .body("type", equalTo("urn:ketama:problem:too-few-members"))
                .body("detail", containsString("this member sees 1 of the 2 members the cluster expects, fewer than the 2 (a majority)"));
        assertThat(selector.migration().generation()).isEqualTo(1);

        // the guarded removal
        RestAssured.given().port(TestCluster.managementPort()).queryParam("member", CLUSTER.address(1)).delete("/q/ketama/quorum").then()
                .statusCode(401);
        admin().delete("/q/ketama/quorum").then().statusCode(400).body("type", equalTo("urn:ketama:problem:no-member"));
        admin().queryParam("member", CLUSTER.address(0)).delete("/q/ketama/quorum").then().statusCode(409)
                .body("type", equalTo("urn:ketama:problem:member-present"));
        admin().queryParam("member", "10.9.9.9:5701").delete("/q/ketama/quorum").then().statusCode(404)
                .body("type", equalTo("urn:ketama:problem:not-expected"));
        admin().queryParam("member", CLUSTER.address(1)).delete("/q/ketama/quorum").then().statusCode(200)
                .body("expectedMembers", equalTo(1))
                .body("requiredMembers", equalTo(1))
                .body("refusing", equalTo(false));

        admin().contentType("application/json").body("{\"mode\":\"split\",\"v2SharePercent\":10}").put("/q/ketama/migration").then()
                .statusCode(200)
                .body("generation", equalTo(2))
                .body("quorum.expectedMembers", equalTo(1));
    }
}
