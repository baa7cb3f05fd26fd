package io.ketama.quarkus.deployment;

import io.ketama.core.RingVersion;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.Selection;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

/** One member alone: it owns every key, is ready, and shows its meters and health checks. */
class SmokeTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-smoke", 1);

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app("quarkus.ketama.member.features", "ssd,eu");

    @Inject
    RingSelector selector;

    @Test
    void aLoneMemberOwnsEveryKey() {
        assertThat(selector.isReady()).isTrue();
        RingSnapshot snapshot = selector.snapshot();
        assertThat(snapshot.members()).hasSize(1);
        assertThat(snapshot.members().get(0).member()).isEqualTo(snapshot.localMember());
        assertThat(snapshot.members().get(0).features()).containsExactlyInAnyOrder("ssd", "eu");
        assertThat(snapshot.rings().get(RingVersion.V1).points()).isEqualTo(160);
        assertThat(snapshot.rings().get(RingVersion.V2).points()).isEqualTo(16);
        assertThat(selector.migration().settings()).isEqualTo(MigrationSettings.DEFAULT);

        Selection s = selector.select("https://example.com/a");
        assertThat(s.found()).isTrue();
        assertThat(s.owner()).isEqualTo(snapshot.localMember());
        assertThat(s.version()).isEqualTo(RingVersion.V1);
        assertThat(s.candidates()).containsExactly(snapshot.localMember());

        assertThat(selector.select("k".getBytes(), Set.of("ssd")).owner()).isEqualTo(snapshot.localMember());
        Selection none = selector.select("k", Set.of("gpu"));
        assertThat(none.found()).isFalse();
        assertThat(none.candidates()).isEmpty();
    }

    @Test
    void everyMeterIsRegisteredAtStartUp() {
        // the member rebuilt once at start-up without itself, then again when it began to serve
        long rebuilds = selector.snapshot().generation();
        assertThat(rebuilds).isGreaterThanOrEqualTo(2);
        String body = RestAssured.when().get("/q/metrics").then().statusCode(200).extract().asString();
        for (String series : new String[] {
                "ketama_selections_total{member=\"none\",version=\"v1\"}",
                "ketama_selections_total{member=\"none\",version=\"v2\"}",
                "ketama_shadow_selections_total ",
                "ketama_shadow_disagreements_total ",
                "ketama_rebuilds_seconds_count ",
                "ketama_rebuilds_seconds_sum ",
                "ketama_ring_points{version=\"v1\"} 160.0",
                "ketama_ring_bytes{version=\"v1\"}",
                "ketama_ring_feature_bytes{version=\"v2\"}",
                "ketama_members 1.0",
                "ketama_members_excluded 0.0",
                "ketama_members_exclusions_total 0.0",
                "ketama_ring_generation " + rebuilds + ".0",
                "ketama_migration_v2_share_ratio{member=\"" + CLUSTER.address(0) + "\"} 0.0",
                "ketama_migration_generation{member=\"" + CLUSTER.address(0) + "\"} 1.0",
                "ketama_ramp_steps_total 0.0",
                "ketama_ramp_holds_total 0.0",
                "ketama_ramp_rollbacks_total 0.0"}) {
            assertThat(body).contains(series);
        }
    }

    @Test
    void healthAndMetricsAreServed() {
        RestAssured.when().get("/q/health/ready").then().statusCode(200).body(containsString("ketama-rings"));
        RestAssured.when().get("/q/health/live").then().statusCode(200).body(containsString("ketama-hazelcast"));
        selector.select("metered");
        RestAssured.when().get("/q/metrics").then().statusCode(200)
                .body(containsString("ketama_selections_total{member=\"" + CLUSTER.address(0) + "\",version=\"v1\"}"))
                .body(containsString("ketama_ring_points{version=\"v2\"} 16.0"))
                .body(containsString("ketama_members 1.0"))
                .body(containsString("ketama_rebuilds_seconds_count"));
    }
}
