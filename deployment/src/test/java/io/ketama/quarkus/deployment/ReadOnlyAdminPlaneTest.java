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

/** With no admin token configured the admin plane is read-only: every PUT is a 403, whatever it carries. */
class ReadOnlyAdminPlaneTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new TestCluster("ketama-read-only-admin", 1).app(
            "quarkus.management.enabled", "true",
            "quarkus.management.test-port", "0", // any free port
            "quarkus.management.host", "127.0.0.1");

    @Inject
    RingSelector selector;

    @Test
    void aPutIsRefusedWith403AndAGetAnswers() {
        MigrationState before = selector.migration();
        for (String authorization : new String[] {null, "Bearer anything-at-all-0123456789", ""}) {
            var request = RestAssured.given().port(TestCluster.managementPort()).contentType("application/json");
            if (authorization != null) {
                request.header("Authorization", authorization);
            }
            request.body("{\"mode\":\"v2\"}").put("/q/ketama/migration").then()
                    .statusCode(403)
                    .contentType("application/problem+json")
                    .body("type", equalTo("urn:ketama:problem:read-only"))
                    .body("detail", containsString("quarkus.ketama.admin.token"));
        }
        assertThat(selector.migration()).isEqualTo(before);
        RestAssured.given().port(TestCluster.managementPort()).get("/q/ketama/migration").then().statusCode(200)
                .body("mode", equalTo("v1"))
                .body("generation", equalTo(1));
    }
}
