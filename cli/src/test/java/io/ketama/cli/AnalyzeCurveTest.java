package io.ketama.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.core.HashIdentity;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.RingAnalysis;
import io.ketama.core.RingVersion;
import io.ketama.core.TestData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** {@code analyze --curve-svg}: the balance-versus-points-per-weight chart, measured exactly for the servers given. */
class AnalyzeCurveTest {

    @TempDir
    Path dir;

    @Test
    void writesTheMeasuredCurveAsAnSvgChart() throws Exception {
        Path servers = Files.writeString(dir.resolve("s.txt"), "10.0.0.1:80\n10.0.0.2:80\n10.0.0.3:80 2\n10.0.0.4:80\n");
        Path svg = dir.resolve("curve.svg");
        CliRun r = CliRun.of("", "analyze", "--servers", servers.toString(), "--ring", "v2", "--curve-svg", svg.toString());
        assertThat(r.stderr()).isEmpty();
        assertThat(r.status()).isZero();
        assertThat(JsonChecker.object(r.stdout())).containsEntry("ring", "v2"); // the JSON answer as without the option

        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile());
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
        NodeList lines = doc.getElementsByTagName("polyline");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < lines.getLength(); i++) {
            Element line = (Element) lines.item(i);
            names.add(line.getAttribute("class"));
            assertThat(line.getAttribute("points").split(" ")).as("points of %s", line.getAttribute("class"))
                    .hasSize(BalanceCurve.POINTS_PER_WEIGHT.length);
        }
        assertThat(names).containsExactlyInAnyOrder("expected CoV", "measured CoV", "max/mean \u2212 1", "bytes");

        // the figures printed under the chart are those of the rings at 16 and 160 points per weight
        List<Node<String>> nodes = new ArrayList<>();
        int[] weights = {1, 1, 2, 1};
        for (int i = 0; i < 4; i++) {
            String address = "10.0.0." + (i + 1) + ":80";
            nodes.add(Node.of(HashIdentity.nginx(address), weights[i], address));
        }
        String text = Files.readString(svg);
        for (int k : new int[] {16, 160}) {
            RingAnalysis<String> a = RingAnalysis.of(KetamaRing.build(RingVersion.V2, k, nodes));
            assertThat(text).contains(String.format(Locale.ROOT, "k=%d: CoV %.4f, max/mean %.3f", k, a.coefficientOfVariation(),
                    a.maxOverMean()));
        }
        // more points, better balance: the measured CoV falls by more than half from 1 to 1,024 points per weight
        Matcher m = Pattern.compile("class=\"measured CoV\"[^>]*points=\"([^\"]+)\"").matcher(text);
        assertThat(m.find()).isTrue();
        String[] pts = m.group(1).split(" ");
        double first = Double.parseDouble(pts[0].split(",")[1]);
        double last = Double.parseDouble(pts[pts.length - 1].split(",")[1]);
        assertThat(last).as("y of the last point (lower CoV is further down the chart, a larger y)").isGreaterThan(first);
    }

    @Test
    void aMemcachedStyleRingHasNoCurveToDraw() {
        CliRun r = CliRun.of("", "analyze", "--servers", TestData.dir().resolve("nginx-sample-upstreams.txt").toString(), "--hash-style", "spymemcached",
                "--curve-svg", dir.resolve("x.svg").toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.stderr()).contains("--curve-svg needs a ring whose points per weight can be chosen");
        assertThat(dir.resolve("x.svg")).doesNotExist();
    }

    @Test
    void anUnwritableFileIsAClearError() {
        Path missingDir = dir.resolve("no/such/dir/x.svg");
        CliRun r = CliRun.of("", "analyze", "--servers", TestData.dir().resolve("nginx-sample-upstreams.txt").toString(), "--curve-svg", missingDir.toString());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.stderr()).contains("--curve-svg " + missingDir + ": cannot write it");
    }
}
