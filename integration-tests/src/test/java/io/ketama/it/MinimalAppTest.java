package io.ketama.it;

import com.hazelcast.core.HazelcastInstance;
import io.ketama.quarkus.RingSelector;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

/**
 * An application with only quarkus-ketama (and REST): no Micrometer, no SmallRye Health, no
 * Hazelcast configuration. RingSelector works; the test's member is in a cluster of its own.
 */
@QuarkusTest
class MinimalAppTest {

    @Inject
    RingSelector rings;
    @Inject
    HazelcastInstance hazelcast;

    @Test
    void neitherMicrometerNorSmallRyeHealthIsThere() {
        assertThatThrownBy(() -> Class.forName("io.micrometer.core.instrument.MeterRegistry"))
                .isInstanceOf(ClassNotFoundException.class);
        assertThatThrownBy(() -> Class.forName("org.eclipse.microprofile.health.HealthCheck"))
                .isInstanceOf(ClassNotFoundException.class);
        RestAssured.when().get("/q/metrics").then().statusCode(404);
        RestAssured.when().get("/q/health").then().statusCode(404);
    }

    @Test
    void ringSelectorIsInjectedAndAnswers() {
        assertThat(rings.isReady()).isTrue();
        assertThat(rings.select("k").owner()).isEqualTo(hazelcast.getCluster().getLocalMember());
        RestAssured.when().get("/owner/logo.png").then().statusCode(200)
                .body(equalTo("owner=" + hazelcast.getCluster().getLocalMember().getAddress() + " ring=v1"));
    }

    @Test
    void theTestMemberIsInAClusterOfItsOwn() {
        assertThat(hazelcast.getConfig().getClusterName()).startsWith("ketama-test-");
        assertThat(hazelcast.getConfig().getNetworkConfig().getJoin().getTcpIpConfig().getMembers()).isEmpty();
        assertThat(hazelcast.getConfig().getNetworkConfig().getJoin().getMulticastConfig().isEnabled()).isFalse();
        assertThat(hazelcast.getCluster().getMembers()).hasSize(1);
        assertThat(hazelcast.getCluster().getLocalMember().getAddress().getHost()).isEqualTo("127.0.0.1");
        RestAssured.when().get("/cluster").then().statusCode(200).body(startsWith("cluster=ketama-test-"));
    }
}
