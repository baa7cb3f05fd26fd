package io.ketama.quarkus.runtime;

import com.hazelcast.core.HazelcastInstance;
import io.ketama.quarkus.runtime.MigrationRamp.Signals;
import io.ketama.quarkus.MigrationSettings.Mode;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSource;
import io.ketama.quarkus.MigrationState;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import static io.ketama.quarkus.runtime.LoopbackMembers.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

/**
 * {@code If-Match} on the ramp's {@code PUT} and {@code DELETE}, over real HTTP on two real members:
 * the header {@code PUT /q/ketama/migration} takes (the generation as its {@code ETag} gives it,
 * {@code *}, or none), so an operator who read the migration at one generation starts or stops a
 * ramp only if nobody has changed it since. The driver (member a, the one serving the ramp) has its
 * follower thread held back until a test releases it, so "another member changed the state and
 * this one has not applied it yet" is a fact the test sets up, not a race it hopes to win.
 */
class RampIfMatchTest {

    private static final String TOKEN = "ramp-if-match-test-token-0123456789";
    private static final String RAMP = "/q/ketama/ramp";
    private static final String LONG_PLAN = "{\"steps\":[10,20],\"intervalSeconds\":600}";
    private static final MigrationSettings OPERATORS = new MigrationSettings(Mode.SPLIT, 30, true);

    private static final LoopbackMembers MEMBERS = new LoopbackMembers("ketama-ramp-if-match", 2);
    private static HazelcastInstance a;
    private static HazelcastInstance b;
    private static Vertx vertx;
    private final CountDownLatch follow = new CountDownLatch(1);
    private ClusterMigration driver;
    private ClusterMigration other;
    private MigrationRamp ramp;
    private HttpServer server;

    @BeforeAll
    static void startMembers() {
        a = MEMBERS.start(0);
        b = MEMBERS.start(1);
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stopMembers() throws Exception {
        done(vertx.close().toCompletionStage());
        MEMBERS.close();
    }

    /** Both members on a new state at {@link MigrationSettings#DEFAULT}, generation 1; the driver's follower held. */
    @BeforeEach
    void newState() {
        driver = new ClusterMigration(a, MigrationSource.CLUSTER, s -> { }, Clock.systemUTC(), HeldFollower.until(follow));
        other = new ClusterMigration(b, MigrationSource.CLUSTER, s -> { }, Clock.systemUTC());
        driver.start(MigrationSettings.DEFAULT);
        other.start(MigrationSettings.DEFAULT);
    }

    @AfterEach
    void stop() throws Exception {
        follow.countDown();
        if (server != null) {
            done(server.close().toCompletionStage());
        }
        if (ramp != null) {
            ramp.close();
        }
        driver.close();
        other.close();
        a.getMap(ClusterMigration.MAP).delete(ClusterMigration.KEY); // the next test starts a new state
    }

    private static <T> T done(CompletionStage<T> stage) throws Exception {
        return stage.toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    /** The driver's ramp, its brake reading {@code signals}, served over HTTP on a port chosen now. */
    private void serve(Supplier<Signals> signals) throws Exception {
        ramp = new MigrationRamp(driver, signals, Clock.systemUTC());
        Router router = Router.router(vertx);
        router.route(RAMP).handler(new RampAdminHandler(() -> ramp, () -> Optional.of(TOKEN)));
        server = done(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1").toCompletionStage());
    }

    private void serve() throws Exception {
        serve(() -> new Signals(0, 0, 0, 0));
    }

    private RequestSpecification admin() {
        return RestAssured.given().baseUri("http://127.0.0.1").port(server.actualPort());
    }

    private RequestSpecification authorized() {
        return admin().header("Authorization", "Bearer " + TOKEN).contentType("application/json");
    }

    private String phase() {
        return admin().get(RAMP).then().statusCode(200).extract().path("phase");
    }

    /** Another operator's change, made on the other member: generation 2, which the driver has not applied. */
    private MigrationState changedElsewhere() {
        MigrationState changed = other.update(OPERATORS, ClusterMigration.ANY_GENERATION, "admin 10.0.0.9");
        assertThat(changed.generation()).isEqualTo(2);
        assertThat(driver.current().generation()).as("the driver has not applied the other member's change").isEqualTo(1);
        return changed;
    }

    /** Lets the driver follow the cluster, and waits until it applies what is stored. */
    private void driverFollows() {
        follow.countDown();
        MigrationState stored = stored();
        await(() -> driver.current().equals(stored), "the driver to apply generation " + stored.generation());
    }

    /** The state stored in the cluster's map, read from member a. */
    private static MigrationState stored() {
        return MigrationStateText.decode(a.<String, String>getMap(ClusterMigration.MAP).get(ClusterMigration.KEY));
    }

    /** Each interval, {@code forwards} forwards of which {@code failing} failed. */
    private static Supplier<Signals> forwards(long forwards, long failing) {
        AtomicLong intervals = new AtomicLong();
        return () -> {
            long n = intervals.incrementAndGet();
            return new Signals(0, 0, n * forwards, n * failing);
        };
    }

    @Test
    void aStaleIfMatchOnPutIs412AndStartsNoRamp() throws Exception {
        serve();
        String read = "\"" + driver.current().generation() + "\""; // what the operator saw: generation 1
        MigrationState changed = changedElsewhere();
        driverFollows(); // this member is current: only the operator's read is stale

        authorized().header("If-Match", read).body(LONG_PLAN).put(RAMP)
                .then().statusCode(412)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:ketama:problem:generation-conflict"))
                .body("detail", allOf(
                        containsString("at generation 2"),
                        containsString("admin 10.0.0.9"),
                        containsString("not 1 as If-Match expected"),
                        containsString("no ramp was started and nothing was changed"),
                        containsString("GET /q/ketama/migration")));
        assertThat(phase()).isEqualTo("none");
        assertThat(ramp.steps()).isZero();
        assertThat(stored()).as("nothing was changed").isEqualTo(changed);

        // * is no condition, as without the header: the ramp starts on the state this member applies
        authorized().header("If-Match", "*").body(LONG_PLAN).put(RAMP).then().statusCode(200).body("phase", equalTo("running"));
        assertThat(stored().generation()).isEqualTo(3);
    }

    @Test
    void aMatchingIfMatchOnPutStartsTheRampOnTheStateItNamesEvenBeforeThisMemberAppliedIt() throws Exception {
        serve();
        changedElsewhere();

        // without a condition the ramp starts from the state this member applies (generation 1): refused, as before
        for (String star : new String[] {"*", null}) {
            RequestSpecification put = authorized().body("{\"steps\":[40,50],\"intervalSeconds\":1}");
            (star == null ? put : put.header("If-Match", star)).put(RAMP).then().statusCode(412)
                    .body("detail", containsString("this member applied generation 1"));
        }
        // the operator read generation 2 (on the other member): the first step's compare-and-set is against it
        authorized().header("If-Match", "\"2\"").body("{\"steps\":[40,50],\"intervalSeconds\":1}").put(RAMP)
                .then().statusCode(200)
                .body("phase", equalTo("running"))
                .body("stepsTaken", equalTo(1));
        MigrationState first = stored();
        assertThat(first.generation()).isEqualTo(3);
        // made on top of generation 2 (shadow on), not of this member's stale generation 1 (shadow off)
        assertThat(first.settings()).isEqualTo(new MigrationSettings(Mode.SPLIT, 40, true));
        assertThat(first.changedBy()).startsWith("ramp started by admin 127.0.0.1:");

        await(() -> "done".equals(phase()), "the ramp to take its last step and end");
        assertThat(stored().generation()).isEqualTo(4);
        assertThat(stored().settings()).isEqualTo(new MigrationSettings(Mode.SPLIT, 50, true));
    }

    @Test
    void aRampStartedOnAnIfMatchRollsBackToTheStateItNamed() throws Exception {
        serve(forwards(200, 3)); // 1.5 % of forwards fail: over the plan's 1 %
        MigrationState named = changedElsewhere();

        authorized().header("If-Match", "\"2\"")
                .body("{\"steps\":[40,50],\"intervalSeconds\":1,\"maxForwardErrorPercent\":1,\"rollback\":true}")
                .put(RAMP).then().statusCode(200);
        await(() -> "rolled-back".equals(phase()), "the brake to roll the ramp back");
        // back to generation 2's settings, the state the operator named, not this member's stale generation 1
        assertThat(stored().settings()).isEqualTo(named.settings());
        assertThat(stored().generation()).isEqualTo(4); // 2, the step, the rollback
    }

    @Test
    void aMalformedIfMatchIs400AndNeitherStartsNorStopsARamp() throws Exception {
        serve();
        MigrationState before = stored();
        String[] malformed = {"\"seven\"", "0", "\"-3\"", "\"1\", \"2\"", "\"\""};
        for (String bad : malformed) {
            authorized().header("If-Match", bad).body(LONG_PLAN).put(RAMP).then().statusCode(400)
                    .contentType("application/problem+json")
                    .body("type", equalTo("urn:ketama:problem:invalid-if-match"))
                    .body("detail", startsWith("If-Match must be a generation as the ETag gives it"));
        }
        assertThat(phase()).isEqualTo("none");
        assertThat(stored()).as("nothing was changed").isEqualTo(before);

        authorized().body(LONG_PLAN).put(RAMP).then().statusCode(200);
        for (String bad : malformed) {
            authorized().header("If-Match", bad).delete(RAMP).then().statusCode(400)
                    .body("type", equalTo("urn:ketama:problem:invalid-if-match"));
        }
        assertThat(phase()).isEqualTo("running");
        // * is no condition, as without the header
        authorized().header("If-Match", "*").delete(RAMP).then().statusCode(200).body("phase", equalTo("cancelled"));
    }

    @Test
    void aStaleIfMatchOnDeleteIs412AndTheRampRunsOn() throws Exception {
        serve();
        authorized().body(LONG_PLAN).put(RAMP).then().statusCode(200);
        assertThat(driver.current().generation()).isEqualTo(2); // the ramp's first step, applied here at once
        MigrationState changed = other.update(OPERATORS, ClusterMigration.ANY_GENERATION, "admin 10.0.0.9");
        assertThat(changed.generation()).isEqualTo(3);

        // the operator read generation 2, which this member still applies: the cluster's generation decides
        authorized().header("If-Match", "\"2\"").delete(RAMP)
                .then().statusCode(412)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:ketama:problem:generation-conflict"))
                .body("detail", allOf(
                        containsString("at generation 3"),
                        containsString("admin 10.0.0.9"),
                        containsString("not 2 as If-Match expected"),
                        containsString("the ramp was not stopped and nothing was changed")));
        assertThat(phase()).isEqualTo("running");
        assertThat(stored()).isEqualTo(changed);

        authorized().header("If-Match", "\"3\"").delete(RAMP).then().statusCode(200).body("phase", equalTo("cancelled"));
        assertThat(stored()).isEqualTo(changed);
    }

    @Test
    void theRampsAnswersCarryTheMigrationGenerationAsETagWhichIfMatchTakes() throws Exception {
        serve();
        String none = admin().get(RAMP).then().statusCode(200).body("phase", equalTo("none")).header("ETag", "\"1\"")
                .extract().header("ETag");
        authorized().header("If-Match", none).body(LONG_PLAN).put(RAMP).then().statusCode(200).header("ETag", "\"2\"");
        assertThat(stored().generation()).as("the first step's generation").isEqualTo(2);
        String running = admin().get(RAMP).then().statusCode(200).body("phase", equalTo("running")).header("ETag", "\"2\"")
                .extract().header("ETag");
        authorized().header("If-Match", running).delete(RAMP).then().statusCode(200)
                .body("phase", equalTo("cancelled"))
                .header("ETag", "\"2\"");
    }
}
