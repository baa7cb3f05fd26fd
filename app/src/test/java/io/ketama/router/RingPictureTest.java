package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.hamcrest.Matchers.startsWith;

import com.hazelcast.cluster.Member;
import io.ketama.core.NodeShare;
import io.ketama.core.RingAnalysis;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.router.serving.Members;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * {@code GET /ring} with {@code Accept: image/svg+xml} answers the rings as a picture whose arcs
 * are each member's exact share of each circle, on three real members; without it, JSON as before.
 */
@QuarkusTest
@WithTestResource(value = LoopbackCluster.class, scope = TestResourceScope.MATCHING_RESOURCES)
class RingPictureTest extends ClusterTest {

    private static final Pattern ARC = Pattern.compile("M([-\\d.]+),([-\\d.]+) A[-\\d.]+,[-\\d.]+ 0 [01] 1 ([-\\d.]+),([-\\d.]+)");

    @Override
    String keyPrefix() {
        return "picture-";
    }

    @Override
    void addMembers() {
        cluster.add(Set.of());
        cluster.add(Set.of());
    }

    @Test
    void theSvgArcsAreEachMembersShareOfEachCircle() throws Exception {
        String svg = given().accept(RingResource.SVG).get("/ring").then().statusCode(200)
                .contentType(startsWith(RingResource.SVG)).extract().asString();
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        Document doc = factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getDocumentElement().getLocalName()).isEqualTo("svg");

        RingSnapshot snapshot = selector.snapshot();
        assertThat(snapshot.members()).hasSize(3);
        for (var m : snapshot.members()) {
            assertThat(svg).as("legend names %s", m.address()).contains(m.address());
        }
        assertThat(svg).containsPattern(Pattern.quote(appAddress()) + "</text>(<text[^>]*>[^<]*</text>){3}<text[^>]*>this member</text>")
                .contains("migration: v1, keys through v2: 0.0 %")
                .containsPattern("next step 0\\.0 % \u2192 10\\.0 % moves \\d+\\.\\d % of the keys");

        for (RingVersion version : RingVersion.values()) {
            Map<String, Double> drawn = new HashMap<>(); // colour -> angle
            NodeList paths = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "path");
            for (int i = 0; i < paths.getLength(); i++) {
                Element p = (Element) paths.item(i);
                if (!p.getAttribute("class").equals(version.label())) {
                    continue;
                }
                Matcher m = ARC.matcher(p.getAttribute("d"));
                assertThat(m.lookingAt()).as("an arc path: %s", p.getAttribute("d")).isTrue();
                double a0 = angle(m.group(1), m.group(2));
                double a1 = angle(m.group(3), m.group(4));
                double sweep = a1 - a0 < -0.01 ? a1 - a0 + 2 * Math.PI : a1 - a0;
                drawn.merge(p.getAttribute("fill"), sweep, Double::sum);
            }
            double total = drawn.values().stream().mapToDouble(Double::doubleValue).sum();
            assertThat(total).as("%s arcs cover the circle", version).isCloseTo(2 * Math.PI, within(0.02));
            assertThat(drawn).as("%s colours", version).hasSize(3);
            // each member's drawn share is its exact share (RingAnalysis), to the picture's 0.01 px
            Map<Member, Double> exact = new HashMap<>();
            for (NodeShare<Member> s : RingAnalysis.of(snapshot.ring(version)).shares()) {
                exact.put(s.node().payload(), s.share());
            }
            for (int i = 0; i < snapshot.members().size(); i++) {
                String colour = colourInLegend(svg, snapshot.members().get(i).address());
                assertThat(drawn.get(colour) / (2 * Math.PI)).as("%s share of %s", version, snapshot.members().get(i).address())
                        .isCloseTo(exact.get(snapshot.members().get(i).member()), within(0.005));
            }
        }
    }

    @Test
    void theHeaviestKeysEnteringThisMemberAreMarkedWhereTheyHash() throws Exception {
        String hot = keyPrefix() + "hot-" + UUID.randomUUID();
        String mark = "<title>hot key " + hot + "</title>";
        // hot = asked about hot-keys.min-requests (16) times within the sketch's 1 s window: bursts of
        // 64 from 8 clients, until the picture shows it (one request after another was too slow on a
        // loaded machine: the halving dropped the key before the picture was asked for)
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            String svg;
            do {
                List<Future<?>> burst = new ArrayList<>();
                for (int i = 0; i < 64; i++) {
                    burst.add(clients.submit(() -> given().get("/cache/" + hot).then().statusCode(200)));
                }
                for (Future<?> f : burst) {
                    f.get();
                }
                svg = given().accept(RingResource.SVG).get("/ring").then().statusCode(200).extract().asString();
            } while (!svg.contains(mark) && System.nanoTime() < end);
            assertThat(svg).contains(mark).containsPattern("\u25B2 hot keys: [^<]*" + Pattern.quote(hot));
        } finally {
            clients.shutdownNow();
        }
    }

    @Test
    void withoutAskingForSvgTheRingIsJsonAsBefore() {
        given().get("/ring").then().statusCode(200).contentType(startsWith("application/json"));
        given().accept("application/json").get("/ring").then().statusCode(200).contentType(startsWith("application/json"));
    }

    /** The legend's colour box just before the member's address. */
    private static String colourInLegend(String svg, String address) {
        Matcher m = Pattern.compile("fill=\"(#[0-9a-f]{6})\"/><text[^>]*>" + Pattern.quote(address)).matcher(svg);
        assertThat(m.find()).as("legend entry of %s", address).isTrue();
        return m.group(1);
    }

    /** Clockwise from the top, around the picture's centre (230, 230). */
    private static double angle(String x, String y) {
        double a = Math.atan2(Double.parseDouble(x) - 230, 230 - Double.parseDouble(y));
        return a < 0 ? a + 2 * Math.PI : a;
    }
}
