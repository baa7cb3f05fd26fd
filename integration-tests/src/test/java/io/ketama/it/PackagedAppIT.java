package io.ketama.it;

import io.ketama.testing.FreePorts;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * The packaged application, started the way a user starts it: {@code java -jar} with no JVM flags.
 * The extension wrote Hazelcast's module access into the jar's manifest, so Hazelcast finds every
 * JDK package it asks for and does not warn.
 */
@QuarkusIntegrationTest
@WithTestResource(OwnCluster.class)
class PackagedAppIT {

    @Test
    void theJarServesSelectionsFromItsOwnMember() {
        String cluster = RestAssured.get("/cluster").then().statusCode(200).extract().asString();
        assertThat(cluster).startsWith("cluster=ketama-it-").contains(" members=1 ");
        String self = cluster.substring(cluster.indexOf("self=") + 5);
        RestAssured.get("/owner/logo.png").then().statusCode(200).body(equalTo("owner=" + self + " ring=v1"));
    }

    @Test
    void javaDashJarGivesHazelcastItsModuleAccessWithoutFlags() throws Exception {
        RestAssured.get("/module-access").then().statusCode(200).body(equalTo("open=true"));
        try (ProdMember plain = new ProdMember(Path.of("target", "plain-java-jar.log"), Duration.ofSeconds(120),
                "quarkus.ketama.hazelcast.cluster-name=ketama-it-" + java.util.UUID.randomUUID(),
                "quarkus.ketama.hazelcast.interface=127.0.0.1",
                "quarkus.ketama.hazelcast.port=" + FreePorts.take(),
                "quarkus.ketama.hazelcast.port-auto-increment=false",
                "quarkus.log.category.\"com.hazelcast\".level=INFO")) {
            RestAssured.get(plain.baseUrl + "/module-access").then().statusCode(200).body(equalTo("open=true"));
            assertThat(plain.output()).contains("Hazelcast").doesNotContain("without proper access to required Java packages");
        }
    }
}
