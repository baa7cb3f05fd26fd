package io.ketama.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.core.HashStyle;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.NodeShare;
import io.ketama.core.RingAnalysis;
import io.ketama.core.RingDiff;
import io.ketama.core.RingVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI with {@code --hash-style spymemcached|spymemcached-weighted|hashring}, in-process with real files. */
class MemcachedStylesCliTest {

    @TempDir
    Path dir;

    private static final String SERVERS = "10.0.0.1:11211\n10.0.0.2:11211 3\n[2001:db8::7]:11211\ncache-d/10.0.0.4:11211 2\n";

    private Path servers() throws IOException {
        Path p = dir.resolve("servers.txt");
        Files.writeString(p, SERVERS, StandardCharsets.UTF_8);
        return p;
    }

    private static KetamaRing<String> ring(HashStyle style) {
        List<Node<String>> nodes = new ArrayList<>();
        for (String line : SERVERS.split("\n")) {
            String[] p = line.split(" ");
            nodes.add(Node.of(style.identity(p[0]), p.length > 1 ? Integer.parseInt(p[1]) : 1, p[0]));
        }
        return KetamaRing.build(style, nodes);
    }

    private static List<String> keys() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            out.add("/object/" + i + (i % 7 == 0 ? "/é" : ""));
        }
        return out;
    }

    @Test
    void routeAnswersAsTheStylesRingForEveryKeyAndCandidates() throws Exception {
        String stdin = keys().stream().map(k -> k + "\n").collect(Collectors.joining());
        for (HashStyle style : List.of(HashStyle.SPYMEMCACHED, HashStyle.SPYMEMCACHED_WEIGHTED, HashStyle.HASHRING)) {
            KetamaRing<String> ring = ring(style);
            CliRun owners = CliRun.of(stdin, "route", "--servers", servers().toString(), "--hash-style", style.label());
            assertThat(owners.stderr()).isEmpty();
            assertThat(owners.lines()).containsExactlyElementsOf(keys().stream().map(k -> ring.locate(k).payload()).toList());
            CliRun three = CliRun.of(stdin, "route", "--servers", servers().toString(), "--hash-style", style.label(), "--candidates", "3");
            assertThat(three.lines()).containsExactlyElementsOf(keys().stream()
                    .map(k -> ring.candidates(k.getBytes(StandardCharsets.UTF_8), 3).stream().map(Node::payload)
                            .collect(Collectors.joining(" "))).toList());
        }
    }

    @Test
    void analyzeNamesTheStyleAndCountsItsPoints() throws Exception {
        CliRun r = CliRun.of("", "analyze", "--servers", servers().toString(), "--hash-style", "hashring");
        assertThat(r.stderr()).isEmpty();
        Map<String, Object> json = JsonChecker.object(r.stdout());
        KetamaRing<String> ring = ring(HashStyle.HASHRING);
        assertThat(json).containsEntry("ring", "hashring").containsEntry("hashStyle", "hashring");
        assertThat(((Number) json.get("points")).longValue()).isEqualTo(ring.pointCount());
        // hashring: floor(w / 7 * 40 * 4) digests of 4 points: 22, 68, 22, 45
        assertThat(ring.generatedPointCount()).isEqualTo(4 * (22 + 68 + 22 + 45));
        assertThat(json).containsKey("expectedCoefficientOfVariation");
    }

    @Test
    void diffFromSpymemcachedToV2IsTheExpectedShareOverKeysBecauseTheKeyHashesDiffer() throws Exception {
        CliRun r = CliRun.of("", "diff", "--servers", servers().toString(), "--hash-style", "spymemcached",
                "--against", servers().toString(), "--ring", "v2");
        assertThat(r.stderr()).isEmpty();
        assertThat(r.status()).isZero();
        Map<String, Object> json = JsonChecker.object(r.stdout());
        assertThat((String) json.get("keyHashes")).contains("md5, crc32");
        @SuppressWarnings("unchecked")
        Map<String, Object> after = (Map<String, Object>) json.get("after");
        assertThat(after).containsEntry("ring", "v2").containsEntry("hashStyle", "nginx");
        KetamaRing<String> spy = ring(HashStyle.SPYMEMCACHED);
        List<Node<String>> v2Nodes = spy.nodes().stream()
                .map(n -> Node.of(HashStyle.NGINX.identity(n.payload()), n.weight(), n.payload())).toList();
        KetamaRing<String> v2 = KetamaRing.build(RingVersion.V2, v2Nodes);
        double stay = 0;
        List<NodeShare<String>> a = RingAnalysis.of(spy).shares();
        List<NodeShare<String>> b = RingAnalysis.of(v2).shares();
        for (int i = 0; i < a.size(); i++) {
            stay += a.get(i).share() * b.get(i).share();
        }
        assertThat(((Number) json.get("movedFraction")).doubleValue()).isCloseTo(1 - stay, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(((Number) json.get("movedHashes")).longValue()).isEqualTo(RingDiff.compare(spy, v2).movedHashes());
    }

    @Test
    void diffBetweenTwoMemcachedStylesIsExactOverHashes() throws Exception {
        CliRun r = CliRun.of("", "diff", "--servers", servers().toString(), "--hash-style", "spymemcached",
                "--against", servers().toString(), "--hash-style", "hashring");
        assertThat(r.status()).isZero();
        Map<String, Object> json = JsonChecker.object(r.stdout());
        assertThat(json).doesNotContainKey("keyHashes");
        RingDiff<String> d = RingDiff.compare(ring(HashStyle.SPYMEMCACHED), ring(HashStyle.HASHRING));
        assertThat(d.keyHashesDiffer()).isFalse();
        assertThat(((Number) json.get("movedHashes")).longValue()).isEqualTo(d.movedHashes());
    }

    @Test
    void ringOptionsThatAMemcachedStyleFixesAreRefusedWithTheReason() throws Exception {
        CliRun r = CliRun.of("", "route", "--servers", servers().toString(), "--hash-style", "spymemcached", "--ring", "v2");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.stderr()).contains("--hash-style spymemcached fixes the points").contains("--ring and --points-per-weight go only with");
        CliRun t = CliRun.of("", "analyze", "--servers", servers().toString(), "--hash-style", "hashring", "--target-cov", "0.01");
        assertThat(t.status()).isEqualTo(2);
        assertThat(t.stderr()).contains("--target-cov needs a ring whose points per weight can be chosen");
        CliRun u = CliRun.of("", "analyze", "--servers", servers().toString(), "--hash-style", "ketama");
        assertThat(u.status()).isEqualTo(2);
        assertThat(u.stderr()).contains("--hash-style must be one of nginx, pingora, spymemcached, spymemcached-weighted, hashring, twemproxy-fnv1a-64, twemproxy-md5, libmemcached-weighted, libmemcached-ketama, libmemcached-ketama-md5, libmemcached-spymemcached, dubbo, xmemcached, was 'ketama'");
    }
}
