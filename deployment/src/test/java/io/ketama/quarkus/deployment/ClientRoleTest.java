package io.ketama.quarkus.deployment;

import static io.ketama.quarkus.deployment.TestCluster.awaitSnapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.containsString;

import io.ketama.core.RingVersion;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSettings.Mode;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.Selection;
import io.ketama.quarkus.runtime.MemberPart;
import io.quarkus.runtime.Startup;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.RestAssured;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code quarkus.ketama.role=client}: the extension makes a Hazelcast client of the configured
 * cluster instead of a member, and {@code @Inject RingSelector} answers from the members' rings:
 * every key where the members place it, a migration change made on a member followed; the
 * application is on no ring, refuses migration changes and has no admin plane (404 problem).
 */
class ClientRoleTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-client-role", 4);
    static final List<MemberPart> MEMBERS = new ArrayList<>();

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app(jar -> jar.addClass(Members.class),
            "quarkus.ketama.role", "client",
            "quarkus.management.enabled", "true",
            "quarkus.management.test-port", "0",
            "quarkus.management.host", "127.0.0.1");

    /** The cluster's three members, started before the extension makes its client (a client needs a cluster to connect to). */
    @Startup(100)
    @ApplicationScoped
    static class Members {
        @PostConstruct
        void start() {
            synchronized (MEMBERS) {
                if (MEMBERS.isEmpty()) {
                    MEMBERS.add(CLUSTER.startRunning(1, MigrationSettings.DEFAULT));
                    MEMBERS.add(CLUSTER.startRunning(2, MigrationSettings.DEFAULT));
                    MEMBERS.add(CLUSTER.startRunning(3, MigrationSettings.DEFAULT));
                }
            }
        }
    }

    @Inject
    RingSelector selector;

    @AfterAll
    static void stopMembers() {
        CLUSTER.close();
    }

    @Test
    void theClientAnswersFromTheMembersRingsAndHasNoMemberPart() throws InterruptedException {
        RingSnapshot s = awaitSnapshot(selector, x -> x.members().size() == 3, "the three members on the client's rings");
        assertThat(s.localMember()).as("a client is on no ring").isNull();
        assertThat(selector.isReady()).isTrue();
        assertThat(disagreements(MEMBERS.get(0))).as("keys the client places elsewhere than the members, at rest").isEmpty();

        // a member leaves: drained, then stopped; the client follows
        MemberPart leaving = MEMBERS.get(2);
        CLUSTER.drainAndStop(leaving, Duration.ofSeconds(10), Duration.ZERO);
        awaitSnapshot(selector, x -> x.members().size() == 2, "the two members left on the client's rings");
        assertThat(disagreements(MEMBERS.get(0))).as("keys the client places elsewhere than the members, after one left").isEmpty();

        // a migration step: 30 % of the keys to v2
        MemberPart member = MEMBERS.get(0);
        long generation = member.updateMigration(new MigrationSettings(Mode.SPLIT, 30, false), -1, "test").generation();
        TestCluster.await(() -> selector.migration().generation(), g -> g == generation, TestCluster.DEADLINE, "the change on the client");
        int v2 = 0;
        for (int i = 0; i < 10_000; i++) {
            if (selector.select("/k/" + i).version() == RingVersion.V2) {
                v2++;
            }
        }
        assertThat(v2).as("keys on v2 at a 30 % split").isBetween(2_700, 3_300);
        assertThat(disagreements(member)).as("keys the client places elsewhere than the members, after the step").isEmpty();

        assertThatThrownBy(() -> selector.updateMigration(new MigrationSettings(Mode.V1, 0, false)))
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("Hazelcast client");
        RestAssured.given().port(TestCluster.managementPort()).get("/q/ketama/migration")
                .then().statusCode(404).contentType("application/problem+json").body(containsString("client-has-no-admin-plane"));
    }

    /**
     * The keys of 10,000 whose owner on the client differs from the member's owner on the ring
     * version the client gives the key, or whose ring version differs from the member's migration state.
     */
    private List<String> disagreements(MemberPart member) {
        assertThat(selector.migration().generation()).as("the client's migration generation").isEqualTo(member.migration().generation());
        List<String> out = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(2);
        for (int i = 0; i < 10_000; i++) {
            String key = "/k/" + random.nextLong();
            Selection c = selector.select(key);
            Object owner = member.snapshot().ring(c.version()).locate(key).payload();
            if (!c.owner().equals(owner)) {
                out.add(key + ": client " + c.owner() + " on " + c.version() + ", member " + owner);
            }
        }
        return out;
    }
}
