package io.ketama.quarkus.runtime;

import com.hazelcast.core.HazelcastInstance;
import io.ketama.quarkus.runtime.MigrationRamp.Phase;
import io.ketama.quarkus.runtime.MigrationRamp.Signals;
import io.ketama.quarkus.MigrationSettings.Mode;
import io.ketama.quarkus.MigrationConflictException;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSource;
import io.ketama.quarkus.MigrationState;
import io.restassured.RestAssured;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import static io.ketama.quarkus.runtime.LoopbackMembers.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * A ramp on two real members: it steps the cluster's share, holds when the predicted misses or the
 * forward errors of an interval cross the plan's threshold, rolls back when told to, and stops
 * when someone else changes the state. The brake's counters come from a supplier that adds the
 * same traffic for every interval, so each interval's rates are exactly known. A member that has
 * not yet applied another member's change (its follower thread held back) cannot start a ramp:
 * the start is a conflict, also over HTTP (412), not a ramp cancelled at once.
 */
class MigrationRampTest {

    private static final Duration SECOND = Duration.ofSeconds(1);

    private static final LoopbackMembers MEMBERS = new LoopbackMembers("ketama-ramp", 2);
    private static HazelcastInstance a;
    private static HazelcastInstance b;
    private final List<AutoCloseable> closing = new ArrayList<>();
    private ClusterMigration driver;
    private ClusterMigration other;

    @BeforeAll
    static void startMembers() {
        a = MEMBERS.start(0);
        b = MEMBERS.start(1);
    }

    @AfterAll
    static void stopMembers() {
        MEMBERS.close();
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
        a.getMap(ClusterMigration.MAP).delete(ClusterMigration.KEY); // the next test starts a new state
    }

    /** Both members follow a new cluster state that starts at {@code start}, generation 1. */
    private void twoMembers(MigrationSettings start) {
        driver = new ClusterMigration(a, MigrationSource.CLUSTER, s -> { }, Clock.systemUTC());
        other = new ClusterMigration(b, MigrationSource.CLUSTER, s -> { }, Clock.systemUTC());
        closing.add(driver);
        closing.add(other);
        driver.start(start);
        other.start(start);
    }

    /**
     * The driver on a new state at {@link MigrationSettings#DEFAULT} with its follower held until
     * {@code follow}; the other member then changes the state. Returns that change, which the driver
     * has not applied.
     */
    private MigrationState staleDriver(CountDownLatch follow) {
        driver = new ClusterMigration(a, MigrationSource.CLUSTER, s -> { }, Clock.systemUTC(), HeldFollower.until(follow));
        other = new ClusterMigration(b, MigrationSource.CLUSTER, s -> { }, Clock.systemUTC());
        closing.add(driver);
        closing.add(other);
        driver.start(MigrationSettings.DEFAULT);
        other.start(MigrationSettings.DEFAULT);
        MigrationState changed = other.update(new MigrationSettings(Mode.SPLIT, 30, true), ClusterMigration.ANY_GENERATION,
                "admin 10.0.0.9");
        assertThat(changed.generation()).isEqualTo(2);
        assertThat(stored()).isEqualTo(changed);
        assertThat(driver.current().generation()).as("the driver has not applied the other member's change").isEqualTo(1);
        return changed;
    }

    /** The state stored in the cluster's map, read from member a. */
    private static MigrationState stored() {
        return MigrationStateText.decode(a.<String, String>getMap(ClusterMigration.MAP).get(ClusterMigration.KEY));
    }

    /** Each interval: {@code selections} shadow selections of which {@code disagreeing}, {@code forwards} of which {@code failing}. */
    private static Supplier<Signals> traffic(long selections, long disagreeing, long forwards, long failing) {
        AtomicLong intervals = new AtomicLong();
        return () -> {
            long n = intervals.incrementAndGet();
            return new Signals(n * selections, n * disagreeing, n * forwards, n * failing);
        };
    }

    private MigrationRamp ramp(Supplier<Signals> signals) {
        MigrationRamp ramp = new MigrationRamp(driver, signals, Clock.systemUTC());
        closing.add(ramp);
        return ramp;
    }

    private static MigrationRamp.Status awaitEnd(MigrationRamp ramp) {
        await(() -> ramp.status().phase() != Phase.RUNNING, "the ramp to end");
        return ramp.status();
    }

    @Test
    void withoutABrakeEveryStepReachesEveryMember() {
        twoMembers(MigrationSettings.DEFAULT);
        MigrationRamp ramp = ramp(traffic(1000, 100, 1000, 0));
        ramp.start(new RampPlan(List.of(1.0, 10.0, 50.0), SECOND, null, null, false, 100), "test");
        assertThat(driver.current().settings()).isEqualTo(new MigrationSettings(Mode.SPLIT, 1, false));
        MigrationRamp.Status end = awaitEnd(ramp);
        assertThat(end.phase()).isEqualTo(Phase.DONE);
        assertThat(end.stepsTaken()).isEqualTo(3);
        assertThat(ramp.steps()).isEqualTo(3);
        assertThat(ramp.holds()).isZero();
        MigrationState last = driver.current();
        assertThat(last.settings()).isEqualTo(new MigrationSettings(Mode.SPLIT, 50, false));
        assertThat(last.generation()).isEqualTo(4);
        assertThat(last.changedBy()).isEqualTo("ramp started by test");
        await(() -> other.current().equals(last), "the other member at the last step");
    }

    @Test
    void thePredictedMissBrakeHoldsBeforeAStepThatWouldCostTooMuch() {
        twoMembers(MigrationSettings.DEFAULT);
        // disagreement rate 0.5: +9 % predicts 4.5 % misses (under 5), +40 % predicts 20 % (over)
        MigrationRamp ramp = ramp(traffic(1000, 500, 0, 0));
        ramp.start(new RampPlan(List.of(1.0, 10.0, 50.0), SECOND, 5.0, null, false, 100), "test");
        MigrationRamp.Status end = awaitEnd(ramp);
        assertThat(end.phase()).isEqualTo(Phase.HELD);
        assertThat(end.stepsTaken()).isEqualTo(2);
        assertThat(end.event()).contains("would miss about 20.000 % of requests");
        assertThat(ramp.holds()).isEqualTo(1);
        assertThat(ramp.rollbacks()).isZero();
        // held where it was, shadow kept on for the prediction
        assertThat(driver.current().settings()).isEqualTo(new MigrationSettings(Mode.SPLIT, 10, true));
        // a held ramp is over: cancelling it says so, and why it stopped
        assertThatThrownBy(() -> ramp.cancel("operator"))
                .hasMessageContaining("no ramp is running: the last one is held (held: ")
                .hasMessageContaining("would miss about 20.000 % of requests")
                .hasMessageContaining("PUT a new plan to go on");
    }

    @Test
    void tooFewShadowSelectionsToPredictHolds() {
        twoMembers(MigrationSettings.DEFAULT);
        MigrationRamp ramp = ramp(traffic(99, 0, 0, 0));
        ramp.start(new RampPlan(List.of(1.0, 10.0), SECOND, 5.0, null, false, 100), "test");
        MigrationRamp.Status end = awaitEnd(ramp);
        assertThat(end.phase()).isEqualTo(Phase.HELD);
        assertThat(end.event()).contains("only 99 shadow selections");
        assertThat(driver.current().settings().v2SharePercent()).isEqualTo(1);
    }

    @Test
    void theForwardErrorBrakeRollsBackToWhereTheRampStarted() {
        MigrationSettings start = new MigrationSettings(Mode.SPLIT, 0, true);
        twoMembers(start);
        MigrationRamp ramp = ramp(traffic(1000, 0, 200, 3)); // 1.5 % of forwards fail
        ramp.start(new RampPlan(List.of(5.0, 10.0), SECOND, null, 1.0, true, 100), "test");
        MigrationRamp.Status end = awaitEnd(ramp);
        assertThat(end.phase()).isEqualTo(Phase.ROLLED_BACK);
        assertThat(end.event()).contains("1.50 % of 200 forwards failed");
        assertThat(ramp.rollbacks()).isEqualTo(1);
        assertThat(driver.current().settings()).isEqualTo(start);
        assertThat(driver.current().generation()).isEqualTo(3); // start, the step, the rollback
        await(() -> other.current().settings().equals(start), "the other member back where the ramp started");
    }

    @Test
    void theForwardErrorBrakeWithoutRollbackHolds() {
        twoMembers(MigrationSettings.DEFAULT);
        MigrationRamp ramp = ramp(traffic(1000, 0, 200, 3));
        ramp.start(new RampPlan(List.of(5.0, 10.0), SECOND, null, 1.0, false, 100), "test");
        assertThat(awaitEnd(ramp).phase()).isEqualTo(Phase.HELD);
        assertThat(driver.current().settings().v2SharePercent()).isEqualTo(5);
    }

    @Test
    void anotherChangeDuringTheRampCancelsIt() {
        twoMembers(MigrationSettings.DEFAULT);
        MigrationRamp ramp = ramp(traffic(1000, 0, 0, 0));
        ramp.start(new RampPlan(List.of(1.0, 10.0, 50.0), Duration.ofSeconds(2), null, null, false, 100), "test");
        MigrationState operator = other.update(MigrationSettings.DEFAULT, ClusterMigration.ANY_GENERATION, "admin 10.0.0.9");
        MigrationRamp.Status end = awaitEnd(ramp);
        assertThat(end.phase()).isEqualTo(Phase.CANCELLED);
        assertThat(end.event()).contains("changed by admin 10.0.0.9");
        await(() -> driver.current().equals(operator), "the operator's change stays");
    }

    @Test
    void aRampStartedOnAMemberThatHasNotAppliedTheLatestChangeIsAConflictAndStartsNothing() {
        CountDownLatch follow = new CountDownLatch(1);
        try {
            MigrationState changed = staleDriver(follow);
            MigrationRamp ramp = ramp(traffic(1000, 0, 0, 0));
            RampPlan plan = new RampPlan(List.of(10.0, 20.0), Duration.ofMinutes(10), null, null, false, 100);
            assertThatThrownBy(() -> ramp.start(plan, "test"))
                    .isInstanceOfSatisfying(MigrationConflictException.class, e -> {
                        assertThat(e.current()).isEqualTo(changed);
                        assertThat(e.expectedGeneration()).isEqualTo(1);
                    });
            assertThat(ramp.status()).as("no ramp was started").isNull();
            assertThat(ramp.steps()).isZero();
            assertThat(stored()).as("nothing was changed").isEqualTo(changed);

            follow.countDown();
            await(() -> driver.current().equals(changed), "the driver to apply the other member's change");
            assertThat(ramp.start(plan, "test").phase()).as("started again once the member is current").isEqualTo(Phase.RUNNING);
            assertThat(stored().generation()).isEqualTo(3);
            assertThat(stored().settings()).isEqualTo(new MigrationSettings(Mode.SPLIT, 10, true));
        } finally {
            follow.countDown();
        }
    }

    @Test
    void overHttpAStaleMembersRampIs412SayingWhatChangedAndWhatToDo() throws Exception {
        String token = "ramp-conflict-test-token-0123456789";
        CountDownLatch follow = new CountDownLatch(1);
        try {
            MigrationState changed = staleDriver(follow);
            MigrationRamp ramp = ramp(traffic(1000, 0, 0, 0));
            Vertx vertx = Vertx.vertx();
            closing.add(() -> vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS));
            Router router = Router.router(vertx);
            router.route("/q/ketama/ramp").handler(new RampAdminHandler(() -> ramp, () -> Optional.of(token)));
            int port = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS).actualPort();

            RestAssured.given().baseUri("http://127.0.0.1").port(port)
                    .header("Authorization", "Bearer " + token).contentType("application/json")
                    .body("{\"steps\":[10,20],\"intervalSeconds\":600}")
                    .put("/q/ketama/ramp")
                    .then().statusCode(412)
                    .contentType("application/problem+json")
                    .body("type", equalTo("urn:ketama:problem:generation-conflict"))
                    .body("detail", allOf(
                            containsString("generation 2"),
                            containsString("admin 10.0.0.9"),
                            containsString("this member applied generation 1"),
                            containsString("no ramp was started and nothing was changed"),
                            containsString("GET /q/ketama/migration"),
                            containsString("PUT the ramp again")));
            RestAssured.given().baseUri("http://127.0.0.1").port(port).get("/q/ketama/ramp")
                    .then().statusCode(200).body("phase", equalTo("none"));
            assertThat(stored()).as("nothing was changed").isEqualTo(changed);
        } finally {
            follow.countDown();
        }
    }

    @Test
    void oneRampAtATimeAndACancelStopsIt() {
        twoMembers(MigrationSettings.DEFAULT);
        MigrationRamp ramp = ramp(traffic(1000, 0, 0, 0));
        RampPlan plan = new RampPlan(List.of(1.0, 10.0), Duration.ofMinutes(10), null, null, false, 100);
        ramp.start(plan, "test");
        assertThatThrownBy(() -> ramp.start(plan, "again")).hasMessageContaining("a ramp is running");
        assertThat(ramp.cancel("operator").phase()).isEqualTo(Phase.CANCELLED);
        assertThat(driver.current().settings().v2SharePercent()).isEqualTo(1);
        assertThatThrownBy(() -> ramp.cancel("operator"))
                .hasMessageContaining("no ramp is running: the last one is cancelled (cancelled by operator at step 1)");
    }

    @Test
    void badPlansAreRefusedWithTheReason() {
        assertThatThrownBy(() -> new RampPlan(List.of(10.0, 5.0), SECOND, null, null, false, 1)).hasMessageContaining("rise strictly");
        assertThatThrownBy(() -> new RampPlan(List.of(0.0), SECOND, null, null, false, 1)).hasMessageContaining("(0, 100]");
        assertThatThrownBy(() -> new RampPlan(List.of(), SECOND, null, null, false, 1)).hasMessageContaining("1 to 20");
        assertThatThrownBy(() -> new RampPlan(List.of(1.0), Duration.ofMillis(10), null, null, false, 1))
                .hasMessageContaining("at least 1 second");
        assertThatThrownBy(() -> new RampPlan(List.of(1.0), SECOND, 120.0, null, false, 1)).hasMessageContaining("maxPredictedMissPercent");
        assertThatThrownBy(() -> new RampPlan(List.of(1.0), SECOND, null, null, true, 1)).hasMessageContaining("rollback needs");
    }
}
