package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.ketama.testing.FreePorts;
import io.ketama.testing.LoopbackHazelcast;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * While this member is not on the rings, routing answers 503 with the reason. Made real by
 * joining a cluster in which an older member already uses this member's node id: the rings
 * leave the newcomer out.
 */
@QuarkusTest
@TestProfile(NotReadyTest.TwinNodeId.class)
class NotReadyTest {

    public static class TwinNodeId implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(OlderTwin.class));
        }
    }

    /** Starts the older member that holds the node id first. */
    public static class OlderTwin implements QuarkusTestResourceLifecycleManager {
        private TestMember twin;

        @Override
        public Map<String, String> start() {
            String cluster = "ketama-test-" + UUID.randomUUID();
            twin = TestMember.start(cluster, List.of(), Set.of(), "twin");
            Map<String, String> keys = new HashMap<>(
                    LoopbackHazelcast.extensionKeys(cluster, FreePorts.take(), List.of(twin.port())));
            keys.put("quarkus.ketama.member.node-id", "twin");
            return keys;
        }

        @Override
        public void stop() {
            twin.close();
        }
    }

    @Test
    void routingAnswers503WithTheReason() {
        given().get("/cache/any-key").then().statusCode(503)
                .contentType(Problem.MEDIA_TYPE)
                .header("Retry-After", "1")
                .body("type", equalTo("urn:ketama-router:problem:ring-not-ready"))
                .body("detail", containsString("not on the rings"));
        given().get("/route/any-key").then().statusCode(503)
                .body("type", equalTo("urn:ketama-router:problem:ring-not-ready"));
    }

    @Test
    void theRingShowsWhyThisMemberIsLeftOut() {
        given().get("/ring").then().statusCode(200)
                .body("members.size()", equalTo(1))
                .body("members[0].nodeId", equalTo("twin"))
                .body("excluded.size()", equalTo(1))
                .body("excluded[0].address", equalTo(given().get("/ring").path("localMember")))
                .body("excluded[0].reason", containsString("twin"));
    }

    @Test
    void readinessIsDown() {
        given().get("/q/health/ready").then().statusCode(503).body("status", equalTo("DOWN"));
    }

    @Test
    void badInputIsStillJudgedFirst() {
        given().get("/cache/").then().statusCode(400)
                .body("type", equalTo("urn:ketama-router:problem:empty-key"));
    }
}
