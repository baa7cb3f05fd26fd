package io.ketama.it;

import com.hazelcast.cluster.Address;
import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.testing.Await;
import io.ketama.testing.FreePorts;
import io.ketama.testing.LoopbackHazelcast;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A developer runs the application (java -jar, prod profile, no settings) and, on the same machine,
 * its tests: the test's member and the running member never join, though the running one is told
 * where the test's member is. A third member that uses the test member's cluster name joins it in
 * the same time, so the test member was reachable all along: only the cluster names kept them apart.
 */
@QuarkusTest
class ProdAndTestMembersStayApartIT {

    private static final Duration DEADLINE = Duration.ofSeconds(120);

    @Inject
    HazelcastInstance testMember;

    @Test
    void theTestMemberAndARunningAppDoNotJoin() throws Exception {
        Address test = testMember.getCluster().getLocalMember().getAddress();
        String testMemberAddress = test.getHost() + ":" + test.getPort();
        // Default cluster name, as a developer's app has; a port chosen at run time (FreePorts), away from
        // 5701-5703 where a developer's real app would look for it, and from concurrent test runs.
        try (ProdMember prod = new ProdMember(Path.of("target", "prod-member.log"), DEADLINE,
                "quarkus.ketama.hazelcast.port=" + FreePorts.take(),
                "quarkus.ketama.hazelcast.port-auto-increment=false",
                "quarkus.ketama.hazelcast.interface=127.0.0.1",
                "quarkus.ketama.hazelcast.members=" + testMemberAddress)) {
            // Ready means its join phase is over: it has asked the test member and stayed alone.
            String prodCluster = RestAssured.get(prod.baseUrl + "/cluster").then().statusCode(200).extract().asString();
            assertThat(prodCluster).as("the running app: default cluster, alone").startsWith("cluster=ketama members=1 ");

            HazelcastInstance control = Hazelcast.newHazelcastInstance(controlConfig());
            try {
                Await.until(() -> testMember.getCluster().getMembers().size() == 2, DEADLINE, "the control member joins the test member");
                assertThat(testMember.getCluster().getMembers()).containsExactlyInAnyOrder(
                        testMember.getCluster().getLocalMember(), control.getCluster().getLocalMember());
                assertThat(RestAssured.get(prod.baseUrl + "/cluster").then().extract().asString())
                        .startsWith("cluster=ketama members=1 ");
            } finally {
                control.shutdown();
            }
            assertThat(prod.output()).as("the running app did ask the test member, which refused it")
                    .contains("Node could not join cluster at node: [" + test.getHost() + "]:" + test.getPort())
                    .contains("the target cluster has a different cluster-name")
                    .doesNotContain(testMember.getConfig().getClusterName());
        }
    }

    /** A plain member with the test member's cluster name, asking only the test member. */
    private Config controlConfig() {
        return LoopbackHazelcast.anyFreePort(testMember.getConfig().getClusterName(), List.of(test().getPort()));
    }

    private Address test() {
        return testMember.getCluster().getLocalMember().getAddress();
    }
}
