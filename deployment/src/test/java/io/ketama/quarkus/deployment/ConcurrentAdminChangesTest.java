package io.ketama.quarkus.deployment;

import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.RingSelector;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A PUT without If-Match changes the fields it names on top of the state current when it is
 * applied, so two admins (or an admin and a ramp) changing different fields at once both keep
 * their change: a field a PUT leaves out keeps its value, not the value it had when the request
 * was read.
 */
class ConcurrentAdminChangesTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-admin-concurrent", 1);
    static final String TOKEN = "concurrent-admin-test-token-0123456789";
    static final String PATH = "/q/ketama/migration";
    static final int ROUNDS = 100;

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app(
            "quarkus.management.enabled", "true",
            "quarkus.management.test-port", "0",
            "quarkus.management.host", "127.0.0.1",
            "quarkus.ketama.admin.token", TOKEN,
            "quarkus.ketama.migration.mode", "split");

    @Inject
    RingSelector selector;

    @AfterAll
    static void stopMembers() {
        CLUSTER.close();
    }

    private static int put(String body) {
        return RestAssured.given().port(TestCluster.managementPort())
                .header("Authorization", "Bearer " + TOKEN)
                .contentType("application/json")
                .body(body)
                .put(PATH).statusCode();
    }

    @Test
    void twoChangesOfDifferentFieldsAtOnceAreBothKept() throws Exception {
        ExecutorService admins = Executors.newFixedThreadPool(2);
        try {
            for (int round = 1; round <= ROUNDS; round++) {
                int share = round;
                boolean shadow = round % 2 == 1;
                CyclicBarrier together = new CyclicBarrier(2);
                Future<Integer> shareChange = admins.submit(() -> {
                    together.await(30, TimeUnit.SECONDS);
                    return put("{\"v2SharePercent\":" + share + "}");
                });
                Future<Integer> shadowChange = admins.submit(() -> {
                    together.await(30, TimeUnit.SECONDS);
                    return put("{\"shadow\":" + shadow + "}");
                });
                assertThat(shareChange.get(60, TimeUnit.SECONDS)).isEqualTo(200);
                assertThat(shadowChange.get(60, TimeUnit.SECONDS)).isEqualTo(200);
                MigrationSettings now = selector.migration().settings();
                assertThat(now.v2SharePercent()).as("round %d: the share one admin set", round).isEqualTo(share);
                assertThat(now.shadow()).as("round %d: the shadow flag the other set", round).isEqualTo(shadow);
            }
        } finally {
            admins.shutdownNow();
        }
    }
}
