package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** The benchmark's bare endpoint answers the same 1 KiB every time, with no routing headers. */
@QuarkusTest
@WithTestResource(value = LoopbackCluster.class, scope = TestResourceScope.MATCHING_RESOURCES)
class BareResourceTest {

    @Test
    void answersTheSameKibibyteEveryTime() {
        byte[] first = given().get("/bench/bare").then().statusCode(200)
                .contentType("application/octet-stream")
                .header(CacheAnswers.CACHE, (String) null)
                .extract().asByteArray();
        byte[] second = given().get("/bench/bare?k=42").then().statusCode(200).extract().asByteArray();
        assertThat(first).hasSize(1024).isEqualTo(second);
    }
}
