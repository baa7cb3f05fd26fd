package io.ketama.quarkus.deployment;

import io.ketama.quarkus.runtime.MemberPart;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSettings.Mode;
import io.ketama.quarkus.MigrationState;
import io.ketama.quarkus.RingSelector;
import io.quarkus.test.QuarkusUnitTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.LogRecord;

import static io.ketama.quarkus.deployment.TestCluster.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;

/**
 * The guarded admin plane on the management interface, against a cluster of three real members:
 * the application and two Hazelcast members that run the extension's cluster part. One PUT reaches
 * every member with the same generation and a joiner adopts it; a missing or wrong token is a 401;
 * bad bodies are 400s that change nothing; If-Match guards against a concurrent change; the plane is
 * not on the public port; every change is logged with who, what and the generation.
 */
class AdminPlaneTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-admin-plane", 4);
    static final String TOKEN = "admin-plane-test-token-0123456789";
    static final String PATH = "/q/ketama/migration";

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app(
                    "quarkus.management.enabled", "true",
                    "quarkus.management.test-port", "0", // any free port
                    "quarkus.management.host", "127.0.0.1",
                    "quarkus.ketama.admin.token", TOKEN)
            .setLogRecordPredicate(r -> r.getLoggerName().startsWith("io.ketama"))
            // checked once the application has stopped, against the change everyChangeIsLogged... made
            .assertLogRecords(AdminPlaneTest::theLoggedChangeNamesWhoWhatAndTheGeneration);

    /** The generation of the change whose log line is checked; 0 until that test ran. */
    /*
     * What the tests did, for the log check QuarkusUnitTest runs after them. That check runs in the
     * class loader that loaded this class first, the tests in the application's, where this class's
     * statics are other fields (a static flag set by a test always read as unset there, and the
     * check returned before asserting anything): system properties are one per JVM.
     */
    private static final String LOGGED_GENERATION = AdminPlaneTest.class.getName() + ".loggedGeneration";
    private static final String BAD_REQUESTS_SENT = AdminPlaneTest.class.getName() + ".badRequestsSent";

    private static final List<MemberPart> OTHERS = new ArrayList<>();

    @Inject
    RingSelector selector;

    @AfterAll
    static void stopMembers() {
        CLUSTER.close();
    }

    /** The two other members, started once (after the application, so it seeded the state). */
    private static synchronized List<MemberPart> others() {
        if (OTHERS.isEmpty()) {
            // their own configuration says v2; they must adopt the cluster's state instead
            OTHERS.add(CLUSTER.startRunning(1, new MigrationSettings(Mode.V2, 0, false)));
            OTHERS.add(CLUSTER.startRunning(2, new MigrationSettings(Mode.V2, 0, false)));
        }
        return OTHERS;
    }

    private static RequestSpecification admin() {
        return RestAssured.given().port(TestCluster.managementPort());
    }

    private static RequestSpecification authorized() {
        return admin().header("Authorization", "Bearer " + TOKEN).contentType("application/json");
    }

    @Test
    void oneChangeReachesEveryMemberWithTheSameGenerationAndAJoinerAdoptsIt() {
        List<MemberPart> others = others();
        long before = selector.migration().generation();
        for (MemberPart m : others) {
            assertThat(m.migration()).isEqualTo(selector.migration());
        }

        // the application offers its configuration once ready: a new cluster records it (generation 0: applied as the seed)
        await(() -> admin().get(PATH).then().statusCode(200).extract().jsonPath().getString("configuration.mode"), "v1"::equals,
                TestCluster.DEADLINE, "this member's configuration recorded as the cluster's");
        Response put = authorized().body("{\"mode\":\"split\",\"v2SharePercent\":25,\"shadow\":true}").put(PATH);
        put.then().statusCode(200)
                .body("mode", equalTo("split"))
                .body("v2SharePercent", equalTo(25.0f))
                .body("shadow", equalTo(true))
                .body("generation", equalTo((int) before + 1))
                .body("source", equalTo("cluster"))
                .body("origin", equalTo("admin"))
                // the configuration the cluster adopted (this application's, v1) stays recorded: it
                // moves the state again only when a member starts with another one
                .body("configuration.mode", equalTo("v1"))
                .body("configuration.generation", equalTo(0))
                .header("ETag", "\"" + (before + 1) + "\"");
        MigrationState made = selector.migration();
        assertThat(made.generation()).isEqualTo(before + 1);
        assertThat(made.settings()).isEqualTo(new MigrationSettings(Mode.SPLIT, 25, true));
        assertThat(made.changedBy()).startsWith("admin 127.0.0.1:");
        for (MemberPart m : others) {
            await(m::migration, made::equals, TestCluster.DEADLINE, "the change on every member");
        }
        // the GET shows what every member applies
        await(() -> admin().get(PATH).then().statusCode(200).extract().jsonPath().getList("members.generation", Integer.class),
                g -> g.size() == 3 && g.stream().allMatch(x -> x == made.generation()), TestCluster.DEADLINE,
                "three members reporting generation " + made.generation());
        admin().get(PATH).then().body("members.state", hasItems("serving"));

        MemberPart joiner = CLUSTER.startRunning(3, MigrationSettings.DEFAULT);
        assertThat(joiner.migration()).isEqualTo(made); // adopted before startRunning returned
    }

    @Test
    void aPutWithoutTheRightBearerTokenIs401AndChangesNothing() {
        MigrationState before = selector.migration();
        for (RequestSpecification request : List.of(
                admin().contentType("application/json"),
                admin().contentType("application/json").header("Authorization", "Bearer not-the-token-0123456789"),
                admin().contentType("application/json").header("Authorization", "Bearer " + TOKEN + "x"),
                admin().contentType("application/json").header("Authorization", "Basic " + TOKEN),
                admin().contentType("application/json").header("Authorization", TOKEN))) {
            request.body("{\"mode\":\"v2\"}").put(PATH).then()
                    .statusCode(401)
                    .header("WWW-Authenticate", containsString("Bearer"))
                    .contentType("application/problem+json")
                    .body("type", equalTo("urn:ketama:problem:unauthorized"));
        }
        assertThat(selector.migration()).isEqualTo(before);
        // reading needs no token
        admin().get(PATH).then().statusCode(200).body("generation", equalTo((int) before.generation()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"mode\":\"v3\"}|invalid-migration|mode must be one of",
        "{\"mode\":7}|invalid-migration|mode must be one of",
        "{\"v2SharePercent\":101}|invalid-migration|from 0 to 100",
        "{\"v2SharePercent\":-0.5}|invalid-migration|from 0 to 100",
        "{\"v2SharePercent\":\"50\"}|invalid-migration|from 0 to 100",
        "{\"shadow\":\"yes\"}|invalid-migration|true or false",
        "{\"mode\":\"v2\",\"share\":5}|malformed-body|unknown field",
        "not json|malformed-body|not JSON",
        "[1,2]|malformed-body|not an object",
        "{\"mode\":|malformed-body|not JSON",
    })
    void badBodiesAre400AndChangeNothing(String body, String kind, String detail) {
        System.setProperty(BAD_REQUESTS_SENT, "true");
        MigrationState before = selector.migration();
        authorized().body(body).put(PATH).then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("type", equalTo("urn:ketama:problem:" + kind))
                .body("detail", containsString(detail));
        authorized().put(PATH).then().statusCode(400).body("detail", containsString("empty"));
        assertThat(selector.migration()).isEqualTo(before);
    }

    @Test
    void ifMatchMakesAChangeConditionalOnTheGenerationItWasBasedOn() {
        String etag = admin().get(PATH).then().statusCode(200).extract().header("ETag");
        authorized().header("If-Match", etag).body("{\"v2SharePercent\":40}").put(PATH).then().statusCode(200);
        MigrationState now = selector.migration();
        // a second admin who read the same generation loses, and learns why
        authorized().header("If-Match", etag).body("{\"v2SharePercent\":60}").put(PATH).then()
                .statusCode(412)
                .body("type", equalTo("urn:ketama:problem:generation-conflict"))
                .body("detail", containsString("generation " + now.generation()));
        assertThat(selector.migration()).isEqualTo(now);
        authorized().header("If-Match", "\"seven\"").body("{}").put(PATH).then().statusCode(400)
                .body("type", equalTo("urn:ketama:problem:invalid-if-match"));
    }

    @Test
    void everyChangeIsLoggedWithWhoWhatAndTheGeneration() {
        Response r = authorized().body("{\"mode\":\"split\",\"v2SharePercent\":12.5}").put(PATH);
        r.then().statusCode(200);
        System.setProperty(LOGGED_GENERATION, Long.toString(r.jsonPath().getLong("generation")));
    }

    static void theLoggedChangeNamesWhoWhatAndTheGeneration(List<LogRecord> records) {
        long generation = Long.getLong(LOGGED_GENERATION, 0);
        if (generation == 0) {
            return; // the test that makes the change did not run (a single other test was selected)
        }
        List<String> lines = records.stream().map(AdminPlaneTest::format).toList();
        assertThat(lines).anySatisfy(line -> assertThat(line)
                .contains("ketama admin: 127.0.0.1:")
                .contains("changed the migration from")
                .contains("v2SharePercent=12.5")
                .contains("generation " + generation));
        // refused attempts are logged too, with the caller
        assertThat(lines).anySatisfy(line -> assertThat(line).contains("ketama admin: PUT from 127.0.0.1:").contains("refused"));
        if (Boolean.getBoolean(BAD_REQUESTS_SENT)) {
            // and so are those refused for what they asked, not only for their token or generation
            assertThat(lines).anySatisfy(line -> assertThat(line)
                    .contains("ketama admin: PUT " + PATH + " from 127.0.0.1:")
                    .contains("refused (400 malformed-body)").contains("not JSON"));
            assertThat(lines).anySatisfy(line -> assertThat(line)
                    .contains("ketama admin: PUT " + PATH + " from 127.0.0.1:")
                    .contains("refused (400 invalid-migration)").contains("from 0 to 100"));
        }
    }

    @Test
    void theAdminPlaneIsNotOnThePublicPortAndRefusesOtherMethods() {
        MigrationState before = selector.migration();
        RestAssured.given().get(PATH).then().statusCode(404);
        int put = RestAssured.given().header("Authorization", "Bearer " + TOKEN).contentType("application/json")
                .body("{\"mode\":\"v2\"}").put(PATH).then().extract().statusCode();
        assertThat(put).as("PUT on the public port").isIn(404, 405);
        assertThat(selector.migration()).isEqualTo(before);
        admin().delete(PATH).then().statusCode(405).header("Allow", "GET, PUT");
    }

    private static String format(LogRecord r) {
        Object[] params = r.getParameters();
        String message = r.getMessage();
        return params == null || params.length == 0 ? message : String.format(message, params);
    }
}
