package io.ketama.quarkus.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import io.ketama.testing.FreePorts;
import io.quarkus.devui.tests.DevUIJsonRPCTest;
import io.quarkus.test.QuarkusDevModeTest;
import io.restassured.RestAssured;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dev mode: the Dev UI card's page is served, and its JSON-RPC service reports the members (weight,
 * features, data centre), each ring's points, bytes and balance, the migration state, and answers
 * who owns a key, and the application's heaviest keys ({@link FixedHotKeys}) with their rates and owners,
 * marked on the ring picture. A change to {@code hazelcast.yaml} restarts the member with the new file.
 */
class DevUiCardTest extends DevUIJsonRPCTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-devui", 2);
    /** HTTP (dev mode has no test port of its own), chosen at run time like the members' ports. */
    static final int HTTP_PORT = FreePorts.shared(CLUSTER.name + "-http", 1).get(0);
    static final String BASE = "http://127.0.0.1:" + HTTP_PORT;
    /** The port comes from Hazelcast's own file, watched in dev mode; the keys set everything else. */
    static final String HAZELCAST_YAML = "hazelcast:\n  network:\n    port:\n      port: " + CLUSTER.port(0)
            + "\n      auto-increment: false\n";

    @RegisterExtension
    static final QuarkusDevModeTest APP = new QuarkusDevModeTest()
            .withApplicationRoot(jar -> jar.addClass(FixedHotKeys.class)
                    .addAsResource(new StringAsset(HAZELCAST_YAML), "hazelcast.yaml")
                    .addAsResource(new StringAsset(String.join("\n",
                    "quarkus.http.port=" + HTTP_PORT,
                    "quarkus.http.host=127.0.0.1",
                    "quarkus.ketama.hazelcast.cluster-name=" + CLUSTER.name,
                    "quarkus.ketama.hazelcast.interface=127.0.0.1",
                    "quarkus.ketama.hazelcast.members=" + CLUSTER.memberList(),
                    "quarkus.ketama.member.weight=3",
                    "quarkus.ketama.member.features=ssd,eu",
                    "quarkus.ketama.datacenter=ams",
                    "quarkus.ketama.migration.mode=split",
                    "quarkus.ketama.migration.v2-share=12.5",
                    "quarkus.log.category.\"com.hazelcast\".level=WARN")), "application.properties"));

    DevUiCardTest() {
        super("quarkus-ketama", BASE);
    }

    @Test
    void theCardShowsTheRingsAndAnswersWhoOwnsAKey() throws Exception {
        RestAssured.when().get(BASE + "/q/dev-ui/quarkus-ketama/rings").then().statusCode(200);

        JsonNode rings = executeJsonRPCMethod("getRings");
        JsonNode member = rings.get("members").get(0);
        assertThat(rings.get("members")).hasSize(1);
        assertThat(member.get("address").asText()).isEqualTo(CLUSTER.address(0));
        assertThat(member.get("weight").asInt()).isEqualTo(3);
        assertThat(texts(member.get("features"))).containsExactly("eu", "ssd");
        assertThat(member.get("datacenter").asText()).isEqualTo("ams");
        assertThat(member.get("local").asBoolean()).isTrue();
        JsonNode v1 = rings.get("rings").get(0);
        JsonNode v2 = rings.get("rings").get(1);
        assertThat(v1.get("version").asText()).isEqualTo("v1");
        assertThat(v1.get("points").asInt()).isEqualTo(3 * 160);
        assertThat(v2.get("points").asInt()).isEqualTo(3 * 16);
        assertThat(v1.get("bytes").asLong()).isPositive();
        assertThat(v1.get("coefficientOfVariation").asDouble()).isZero(); // one member holds the whole circle
        assertThat(rings.get("migration").get("mode").asText()).isEqualTo("split");
        assertThat(rings.get("migration").get("v2SharePercent").asDouble()).isEqualTo(12.5);
        assertThat(rings.get("generation").asLong()).isPositive();

        JsonNode owner = executeJsonRPCMethod("owner", Map.of("key", "images/logo.png", "features", "ssd"));
        assertThat(owner.get("owner").asText()).isEqualTo(CLUSTER.address(0));
        assertThat(owner.get("version").asText()).isIn("v1", "v2");
        assertThat(texts(owner.get("candidates"))).containsExactly(CLUSTER.address(0));
        JsonNode none = executeJsonRPCMethod("owner", Map.of("key", "images/logo.png", "features", "gpu"));
        assertThat(none.hasNonNull("owner")).as("no member has gpu").isFalse();
        assertThat(none.get("candidates")).isEmpty();

        JsonNode hot = executeJsonRPCMethod("getHotKeys");
        assertThat(hot.get("counted").asBoolean()).isTrue();
        assertThat(hot.get("keys")).hasSize(2);
        assertThat(hot.get("keys").get(0).get("key").asText()).isEqualTo("images/hot.png");
        assertThat(hot.get("keys").get(0).get("rate").asDouble()).isEqualTo(120.5);
        assertThat(hot.get("keys").get(0).get("owner").asText()).isEqualTo(CLUSTER.address(0));
        assertThat(hot.get("keys").get(0).hasNonNull("next")).as("one member: no next candidate").isFalse();
        assertThat(hot.get("keys").get(1).get("key").asText()).isEqualTo("videos/warm.mp4");
        String picture = executeJsonRPCMethod("getPicture").asText();
        assertThat(picture).contains("<title>hot key images/hot.png</title>", "<title>hot key videos/warm.mp4</title>");

        APP.modifyResourceFile("hazelcast.yaml", yaml -> yaml.replace("port: " + CLUSTER.port(0), "port: " + CLUSTER.port(1)));
        long end = System.nanoTime() + TestCluster.DEADLINE.multipliedBy(4).toNanos();
        String address = member.get("address").asText();
        while (!address.equals(CLUSTER.address(1))) {
            assertThat(System.nanoTime()).as("the member restarted on the file's new port; last seen %s", address).isLessThan(end);
            RestAssured.when().get(BASE + "/q/dev-ui/quarkus-ketama/rings"); // dev mode restarts on a request
            Thread.sleep(500);
            address = executeJsonRPCMethod("getRings").get("members").get(0).get("address").asText();
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
