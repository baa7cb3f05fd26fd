package io.ketama.quarkus.deployment;

import io.ketama.quarkus.MigrationState;
import io.ketama.quarkus.RingSelector;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * {@code quarkus.ketama.migration.min-members} on the admin plane: a member that sees fewer members
 * than a change needs (a cluster of one here, as the smaller side of a split sees itself once the
 * other side is dropped) refuses a PUT and a ramp with a 503 problem and {@code Retry-After}, and
 * changes nothing.
 */
class QuorumAdminPlaneTest {

    static final String TOKEN = "quorum-admin-plane-test-token-0123";

    @RegisterExtension
    static final QuarkusUnitTest APP = new TestCluster("ketama-quorum-admin", 1).app(
            "quarkus.management.enabled", "true",
            "quarkus.management.test-port", "0", // any free port
            "quarkus.management.host", "127.0.0.1",
            "quarkus.ketama.admin.token", TOKEN,
            "quarkus.ketama.migration.min-members", "2");

    @Inject
    RingSelector selector;

    @Test
    void aChangeOnAMemberThatSeesTooFewMembersIsA503AndChangesNothing() {
        MigrationState before = selector.migration();
        RestAssured.given().port(TestCluster.managementPort()).contentType("application/json")
                .header("Authorization", "Bearer " + TOKEN)
                .body("{\"mode\":\"split\",\"v2SharePercent\":10}").put("/q/ketama/migration").then()
                .statusCode(503)
                .header("Retry-After", "5")
                .contentType("application/problem+json")
                .body("type", equalTo("urn:ketama:problem:too-few-members"))
                .body("detail", equalTo("this member sees 1 member of the cluster, fewer than the 2 a migration change needs "
                        + "(quarkus.ketama.migration.min-members): the cluster may be split and this the smaller side; nothing was changed"));
        RestAssured.given().port(TestCluster.managementPort()).contentType("application/json")
                .header("Authorization", "Bearer " + TOKEN)
                .body("{\"steps\":[10,20],\"intervalSeconds\":1}").put("/q/ketama/ramp").then()
                .statusCode(503)
                .header("Retry-After", "5")
                .body("type", equalTo("urn:ketama:problem:too-few-members"))
                .body("detail", containsString("nothing was changed"));
        assertThat(selector.migration()).isEqualTo(before);
        RestAssured.given().port(TestCluster.managementPort()).get("/q/ketama/migration").then().statusCode(200)
                .body("generation", equalTo(1));
        RestAssured.given().port(TestCluster.managementPort()).get("/q/ketama/ramp").then().statusCode(200)
                .body("phase", equalTo("none"));
    }
}
