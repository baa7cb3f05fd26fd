package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.RingSelector;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code /admin/migration} reads and changes the v1/v2 split; invalid settings are refused and change nothing. */
@QuarkusTest
@WithTestResource(value = LoopbackCluster.class, scope = TestResourceScope.MATCHING_RESOURCES)
class MigrationTest {

    @Inject
    RingSelector selector;

    @AfterEach
    void restore() {
        selector.updateMigration(MigrationSettings.DEFAULT);
    }

    @Test
    void theStartUpSettingsAreV1WithoutShadow() {
        given().get("/admin/migration").then().statusCode(200)
                .body("mode", equalTo("v1"))
                .body("v2SharePercent", equalTo(0.0f))
                .body("shadow", equalTo(false));
    }

    @Test
    void aChangeTakesEffectForTheNextRequest() {
        given().contentType("application/json").body("{\"mode\":\"v2\"}").put("/admin/migration").then().statusCode(200)
                .body("mode", equalTo("v2"));
        given().get("/cache/mig-1").then().statusCode(200).header(CacheResource.RING, "v2");
        given().get("/route/mig-1").then().statusCode(200).body("ring", equalTo("v2"));

        given().contentType("application/json").body("{\"mode\":\"split\",\"v2SharePercent\":12.5,\"shadow\":true}")
                .put("/admin/migration").then().statusCode(200)
                .body("mode", equalTo("split"))
                .body("v2SharePercent", equalTo(12.5f))
                .body("shadow", equalTo(true));
        given().get("/admin/migration").then().body("mode", equalTo("split")).body("v2SharePercent", equalTo(12.5f));

        // fields left out keep their value
        given().contentType("application/json").body("{\"v2SharePercent\":100}").put("/admin/migration").then().statusCode(200)
                .body("mode", equalTo("split")).body("shadow", equalTo(true)).body("v2SharePercent", equalTo(100.0f));
        given().get("/cache/mig-2").then().statusCode(200).header(CacheResource.RING, "v2");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"mode\":\"v3\"}|invalid-migration|mode must be one of",
        "{\"mode\":7}|invalid-migration|mode must be one of",
        "{\"v2SharePercent\":101}|invalid-migration|from 0 to 100",
        "{\"v2SharePercent\":-0.5}|invalid-migration|from 0 to 100",
        "{\"v2SharePercent\":\"50\"}|invalid-migration|from 0 to 100",
        "{\"shadow\":\"yes\"}|invalid-migration|true or false",
        "{\"mode\":\"v2\",\"share\":5}|invalid-migration|unknown field",
        "not json|malformed-body|not JSON",
        "[1,2]|malformed-body|not an object",
        "{\"mode\":|malformed-body|not JSON",
    })
    void invalidSettingsAreRefusedAndChangeNothing(String body, String kind, String detail) {
        given().contentType("application/json").body(body).put("/admin/migration").then()
                .statusCode(400)
                .contentType(Problem.MEDIA_TYPE)
                .body("type", equalTo("urn:ketama-router:problem:" + kind))
                .body("detail", containsString(detail));
        given().get("/admin/migration").then().body("mode", equalTo("v1")).body("v2SharePercent", equalTo(0.0f));
    }

    @Test
    void anEmptyBodyIsRefused() {
        given().contentType("application/json").put("/admin/migration").then().statusCode(400)
                .contentType(Problem.MEDIA_TYPE)
                .body("type", equalTo("urn:ketama-router:problem:malformed-body"));
    }
}
