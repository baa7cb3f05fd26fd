package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Replays what a real nginx did on points two servers share ({@code nginx-ties/}, see its README):
 * the v1 ring must give every tied point to the server listed first, as nginx did in both orders.
 */
class NginxTieTraceTest {

    private static final int SERVERS = 80;
    private static final int TIED_POINTS = 40;

    @ParameterizedTest(name = "order {0}")
    @ValueSource(strings = {"A", "B"})
    void everyUriGoesWhereNginxSentIt(String order) throws IOException {
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V1, 160, servers(order));
        Map<String, String> trace = trace(order);
        assertThat(ring.nodes()).hasSize(SERVERS);
        assertThat(ring.pointCount()).as("points left after the ties").isEqualTo(SERVERS * 160 - TIED_POINTS);
        assertThat(trace).hasSize(180);
        trace.forEach((uri, upstream) -> assertThat(ring.locate(uri).payload()).as("uri %s", uri).isEqualTo(upstream));
    }

    /** Without this the replay could pass on a trace that never touches a tie. */
    @Test
    void theTwoOrdersDisagreeExactlyOnTheUrisOfTiedPoints() throws IOException {
        Map<String, String> a = trace("A");
        Map<String, String> b = trace("B");
        assertThat(b.keySet()).isEqualTo(a.keySet());
        List<String> differing = a.keySet().stream().filter(uri -> !a.get(uri).equals(b.get(uri))).toList();
        assertThat(differing).hasSize(3 * TIED_POINTS).allMatch(uri -> uri.startsWith("/t"));
    }

    private static List<Node<String>> servers(String order) throws IOException {
        List<Node<String>> nodes = new ArrayList<>();
        for (String line : Files.readAllLines(dir().resolve("servers-" + order + ".txt"))) {
            if (!line.isBlank()) {
                nodes.add(Node.of(HashIdentity.nginx(line.trim()), 1, line.trim()));
            }
        }
        return nodes;
    }

    private static Map<String, String> trace(String order) throws IOException {
        Map<String, String> trace = new LinkedHashMap<>();
        for (String line : Files.readAllLines(dir().resolve("trace-" + order + ".csv"))) {
            if (!line.isBlank()) {
                int comma = line.lastIndexOf(',');
                trace.put(line.substring(0, comma), line.substring(comma + 1));
            }
        }
        return trace;
    }

    private static Path dir() {
        return TestData.dir().resolveSibling("nginx-ties");
    }
}
