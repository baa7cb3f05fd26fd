package io.ketama.quarkus.deployment;

import io.ketama.quarkus.MigrationState;
import io.ketama.quarkus.RingSelector;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;
import jakarta.inject.Inject;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without the management interface there is no admin plane at all: it never falls back to the
 * application's public port (which is where Quarkus would put a management route otherwise).
 */
class NoManagementInterfaceTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new TestCluster("ketama-no-management", 1).app(
            "quarkus.management.enabled", "false",
            "quarkus.ketama.admin.token", "no-management-test-token-0123456789");

    @Inject
    RingSelector selector;

    @Test
    void thePublicPortHasNoAdminPlane() {
        RestAssured.given().get("/q/ketama/migration").then().statusCode(404);
        MigrationState before = selector.migration();
        int put = RestAssured.given().header("Authorization", "Bearer no-management-test-token-0123456789")
                .contentType("application/json").body("{\"mode\":\"v2\"}").put("/q/ketama/migration").then().extract().statusCode();
        assertThat(put).as("PUT on the public port").isIn(404, 405); // Vert.x answers 405 to a method no route takes
        assertThat(selector.migration()).isEqualTo(before);
        RestAssured.given().get("/q/health/ready").then().statusCode(200); // the port itself answers
    }
}
