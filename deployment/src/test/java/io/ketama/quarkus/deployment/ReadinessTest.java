package io.ketama.quarkus.deployment;

import com.hazelcast.core.HazelcastInstance;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Set;

import static io.ketama.quarkus.deployment.TestCluster.awaitSnapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

/**
 * Readiness is DOWN while the local member is not on the rings (here: an older member holds its
 * node id, as when a pod's predecessor has not left yet) and UP once it is; liveness stays UP.
 */
class ReadinessTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-readiness", 2);
    /** How the test reaches the older member, which is started outside the application's class loader. */
    static final String STOP_OLDER = "ketama.test.readiness.stop-older-member";

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app("quarkus.ketama.member.node-id", "pod-0")
            .setBeforeAllCustomizer(() -> {
                HazelcastInstance older = CLUSTER.start(1, 1, Set.of(), "pod-0");
                System.getProperties().put(STOP_OLDER, (Runnable) older::shutdown);
            })
            .setAfterAllCustomizer(() -> {
                Object stop = System.getProperties().remove(STOP_OLDER);
                if (stop != null) {
                    ((Runnable) stop).run();
                }
                CLUSTER.close();
            });

    @Inject
    RingSelector selector;

    @Test
    void notReadyWhileAnotherMemberHoldsItsIdentityThenReady() {
        RingSnapshot s = awaitSnapshot(selector, x -> x.members().size() + x.excluded().size() == 2, "both members seen");
        assertThat(selector.isReady()).isFalse();
        assertThat(s.excluded()).singleElement().satisfies(e -> {
            assertThat(e.member().getUuid()).isEqualTo(s.localMember().getUuid());
            assertThat(e.reason()).contains("ring identity 'pod-0' is already used by member " + CLUSTER.address(1));
        });
        assertThat(selector.select("key").owner().getAddress().getPort()).isEqualTo(CLUSTER.port(1));
        RestAssured.when().get("/q/health/ready").then().statusCode(503).body(containsString("ketama-rings"));
        RestAssured.when().get("/q/health/live").then().statusCode(200);

        ((Runnable) System.getProperties().get(STOP_OLDER)).run();
        awaitSnapshot(selector, RingSnapshot::containsLocalMember, "the local member takes its identity back");
        assertThat(selector.isReady()).isTrue();
        assertThat(selector.select("key").owner()).isEqualTo(s.localMember());
        RestAssured.when().get("/q/health/ready").then().statusCode(200);
    }
}
