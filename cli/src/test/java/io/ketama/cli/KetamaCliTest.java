package io.ketama.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.core.Crc32;
import io.ketama.core.HashIdentity;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.NodeChange;
import io.ketama.core.RingAnalysis;
import io.ketama.core.RingDiff;
import io.ketama.core.RingVersion;
import io.ketama.core.TestData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every command of the CLI, run in-process with real files and captured streams. */
class KetamaCliTest {

    @TempDir
    Path dir;

    private static String upstreams() {
        return TestData.dir().resolve("nginx-sample-upstreams.txt").toString();
    }

    private Path file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    private static List<Node<String>> nodes(String style, String... addressWeight) {
        List<Node<String>> out = new ArrayList<>();
        for (String aw : addressWeight) {
            String[] p = aw.split(" ");
            HashIdentity id = style.equals("pingora") ? HashIdentity.pingora(p[0]) : HashIdentity.nginx(p[0]);
            out.add(Node.of(id, p.length > 1 ? Integer.parseInt(p[1]) : 1, p[0]));
        }
        return out;
    }

    // ---- route ----

    @Test
    void routeSendsEveryTracedUriWhereNginxDid() throws Exception {
        List<String[]> trace = TestData.nginxTrace();
        String keys = trace.stream().map(t -> t[0] + "\n").collect(Collectors.joining());
        List<String> expected = trace.stream().map(t -> t[1]).toList();
        for (String[] ring : new String[][] {{}, {"--ring", "v2", "--points-per-weight", "160"}}) {
            List<String> args = new ArrayList<>(List.of("route", "--servers", upstreams()));
            args.addAll(Arrays.asList(ring));
            CliRun r = CliRun.of(keys, args.toArray(String[]::new));
            assertThat(r.stderr()).isEmpty();
            assertThat(r.status()).isZero();
            assertThat(r.lines()).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void routeKeysAreBytesUpToNewlineWithCarriageReturnsAndALastUnterminatedLine() throws Exception {
        Path servers = file("s.txt", "10.0.0.1:80\n10.0.0.2:80 2\n10.0.0.3:80\n");
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V1, nodes("nginx", "10.0.0.1:80", "10.0.0.2:80 2", "10.0.0.3:80"));
        byte[] nonUtf8 = {(byte) 0xff, (byte) 0xfe, 'x'};
        List<byte[]> keys = List.of("a\r".getBytes(StandardCharsets.UTF_8), new byte[0], nonUtf8,
                "/path?q=1".getBytes(StandardCharsets.UTF_8), "last".getBytes(StandardCharsets.UTF_8));
        ByteArrayOutputStream in = new ByteArrayOutputStream();
        for (int i = 0; i < keys.size(); i++) {
            in.write(keys.get(i));
            if (i < keys.size() - 1) {
                in.write('\n'); // the last key has no newline
            }
        }
        CliRun r = CliRun.of(in.toByteArray(), "route", "--servers", servers.toString());
        assertThat(r.status()).isZero();
        assertThat(r.lines()).containsExactlyElementsOf(keys.stream().map(k -> ring.locate(k).payload()).toList());
        // "a\r" is not "a": the carriage return is hashed
        assertThat(Crc32.hash("a\r".getBytes(StandardCharsets.UTF_8))).isNotEqualTo(Crc32.hashUtf8("a"));
    }

    @Test
    void routeWithoutInputPrintsNothing() {
        CliRun r = CliRun.of(new byte[0], "route", "--servers", upstreams());
        assertThat(r.status()).isZero();
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).isEmpty();
    }

    @Test
    void routeHandlesManyKeysAcrossBufferBoundariesAndKeysLongerThanTheBuffer() throws Exception {
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V1, TestData.nginxServers());
        Random random = new Random(7);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            keys.add("/k/" + Long.toHexString(random.nextLong()) + "/" + "x".repeat(random.nextInt(40)));
        }
        keys.add(25_000, "L".repeat(200_000)); // longer than the 64 KiB read buffer
        CliRun r = CliRun.of(String.join("\n", keys) + "\n", "route", "--servers", upstreams());
        assertThat(r.status()).isZero();
        List<String> lines = r.lines();
        assertThat(lines).hasSize(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            assertThat(lines.get(i)).as("key %d", i).isEqualTo(ring.locate(keys.get(i)).payload());
        }
    }

    @Test
    void routeCandidatesListDistinctServersInFailoverOrder() throws Exception {
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V2, 16, TestData.nginxServers());
        List<String> keys = List.of("/a", "/b", "/c", "doghash", "");
        CliRun r = CliRun.of(String.join("\n", keys) + "\n", "route", "--servers", upstreams(), "--ring", "v2", "--candidates", "3");
        assertThat(r.status()).isZero();
        for (int i = 0; i < keys.size(); i++) {
            String expected = ring.candidates(keys.get(i).getBytes(StandardCharsets.UTF_8), 3).stream()
                    .map(Node::payload).collect(Collectors.joining(" "));
            assertThat(r.lines().get(i)).isEqualTo(expected);
            assertThat(r.lines().get(i).split(" ")).hasSize(3).doesNotHaveDuplicates();
        }
        // more candidates than servers: every server once
        CliRun all = CliRun.of("/a\n", "route", "--servers", upstreams(), "--candidates", "50");
        assertThat(all.lines().get(0).split(" ")).hasSize(9).doesNotHaveDuplicates();
        assertThat(all.lines().get(0)).startsWith(CliRun.of("/a\n", "route", "--servers", upstreams()).lines().get(0) + " ");
    }

    @Test
    void routePrintsServersExactlyAsWrittenInEitherFileFormat() throws Exception {
        Path servers = file("mixed.conf", String.join("\r\n",
                "# comment line",
                "",
                "   server cache-a.example:11211 weight=2 max_fails=3 fail_timeout=10s;   # trailing comment",
                "server [2001:DB8::1]:11211;",
                "unix:/var/run/cache.sock 3",
                "cache-b",
                "\t10.0.0.7\t4",
                ""));
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V1, nodes("nginx",
                "cache-a.example:11211 2", "[2001:DB8::1]:11211", "unix:/var/run/cache.sock 3", "cache-b", "10.0.0.7 4"));
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            keys.add("key-" + i);
        }
        CliRun r = CliRun.of(String.join("\n", keys), "route", "--servers", servers.toString());
        assertThat(r.stderr()).isEmpty();
        assertThat(r.lines()).containsExactlyElementsOf(keys.stream().map(k -> ring.locate(k).payload()).toList());
        assertThat(r.lines()).contains("cache-a.example:11211", "[2001:DB8::1]:11211", "unix:/var/run/cache.sock", "cache-b", "10.0.0.7");
    }

    @Test
    void aByteOrderMarkAtTheStartOfAServersFileIsNotPartOfTheFirstAddress() throws Exception {
        // editors that save UTF-8 with a byte-order mark put U+FEFF before the first line
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V1, nodes("nginx", "10.0.0.1:80", "10.0.0.2:80", "10.0.0.3:80 2"));
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            keys.add("key-" + i);
        }
        List<String> expected = keys.stream().map(k -> ring.locate(k).payload()).toList();
        for (String text : List.of("\uFEFF10.0.0.1:80\n10.0.0.2:80\n10.0.0.3:80 2\n",
                "\uFEFFserver 10.0.0.1:80;\nserver 10.0.0.2:80;\nserver 10.0.0.3:80 weight=2;\n")) {
            Path servers = file("bom.txt", text);
            CliRun r = CliRun.of(String.join("\n", keys), "route", "--servers", servers.toString());
            assertThat(r.stderr()).isEmpty();
            assertThat(r.lines()).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void routePingoraStyleHashesCanonicalAddressesButPrintsThemAsWritten() throws Exception {
        Path servers = file("v6.txt", "[::1]:7777\n[0:0::0001]:7778\n[::1]:7779\n");
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V1, nodes("pingora", "[::1]:7777", "[0:0::0001]:7778", "[::1]:7779"));
        CliRun r = CliRun.of("doghash\na\nb\nc\n", "route", "--servers", servers.toString(), "--hash-style", "pingora", "--candidates", "3");
        assertThat(r.status()).isZero();
        assertThat(r.lines().get(0)).isEqualTo("[::1]:7777 [0:0::0001]:7778 [::1]:7779"); // pingora's own doghash order
        for (int i = 1; i < 4; i++) {
            String key = List.of("doghash", "a", "b", "c").get(i);
            assertThat(r.lines().get(i)).isEqualTo(ring.candidates(key.getBytes(StandardCharsets.UTF_8), 3)
                    .stream().map(Node::payload).collect(Collectors.joining(" ")));
        }
    }

    // ---- analyze ----

    @Test
    void analyzeReportsExactSharesAsValidJson() throws Exception {
        Path servers = file("w.txt", "10.0.0.1:80 1\n10.0.0.2:80 2\nserver 10.0.0.3:80 weight=4;\n");
        CliRun r = CliRun.of("", "analyze", "--servers", servers.toString(), "--ring", "v2", "--points-per-weight", "40");
        assertThat(r.stderr()).isEmpty();
        assertThat(r.status()).isZero();
        Map<String, Object> json = JsonChecker.object(r.stdout());
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V2, 40, nodes("nginx", "10.0.0.1:80 1", "10.0.0.2:80 2", "10.0.0.3:80 4"));
        RingAnalysis<String> a = RingAnalysis.of(ring);
        assertThat(json).containsEntry("ring", "v2").containsEntry("hashStyle", "nginx").doesNotContainKey("target");
        assertThat(num(json, "pointsPerWeight")).isEqualTo(40);
        assertThat(num(json, "nodes")).isEqualTo(3);
        assertThat(num(json, "points")).isEqualTo(a.points());
        assertThat(num(json, "collidingPoints")).isEqualTo(a.collidingPoints());
        assertThat(num(json, "bytes")).isEqualTo(a.bytes());
        assertThat(num(json, "coefficientOfVariation")).isEqualTo(a.coefficientOfVariation());
        assertThat(num(json, "maxOverMean")).isEqualTo(a.maxOverMean());
        assertThat(num(json, "expectedCoefficientOfVariation")).isEqualTo(RingAnalysis.expectedCov(List.of(1, 2, 4), 40));
        List<Map<String, Object>> shares = list(json, "shares");
        assertThat(shares).extracting(s -> s.get("server")).containsExactly("10.0.0.1:80", "10.0.0.2:80", "10.0.0.3:80");
        long total = 0;
        for (int i = 0; i < 3; i++) {
            Map<String, Object> s = shares.get(i);
            assertThat(num(s, "ownedHashes")).isEqualTo(a.shares().get(i).ownedHashes());
            assertThat(num(s, "share")).isEqualTo(a.shares().get(i).share());
            assertThat(num(s, "weightShare")).isEqualTo(a.shares().get(i).weightShare());
            assertThat(num(s, "ratio")).isEqualTo(a.shares().get(i).ratio());
            total += ((BigDecimal) s.get("ownedHashes")).longValueExact();
        }
        assertThat(total).isEqualTo(1L << 32);
    }

    @Test
    void analyzeWithTargetCovStatesPointsPerWeightAndFormula() {
        CliRun r = CliRun.of("", "analyze", "--servers", upstreams(), "--target-cov", "0.01");
        assertThat(r.status()).isZero();
        Map<String, Object> json = JsonChecker.object(r.stdout());
        @SuppressWarnings("unchecked")
        Map<String, Object> target = (Map<String, Object>) json.get("target");
        int k = RingAnalysis.pointsPerWeightFor(0.01, java.util.Collections.nCopies(9, 100));
        assertThat(num(target, "targetCov")).isEqualTo(0.01);
        assertThat(num(target, "pointsPerWeight")).isEqualTo(k);
        assertThat(num(target, "expectedCov")).isLessThanOrEqualTo(0.01);
        assertThat(target.get("formula")).isEqualTo(RingAnalysis.EXPECTED_COV_FORMULA);
        assertThat((String) target.get("formula")).contains("sqrt((N-1)/(N*k+1))");
    }

    @Test
    void analyzeSaysWhenTheTargetNeedsMorePointsPerWeightThanARingAllows() {
        // nine servers of weight 100: CoV 5e-5 needs about 3.6 million points per weight
        List<Integer> weights = java.util.Collections.nCopies(9, 100);
        int needed = RingAnalysis.pointsPerWeightFor(0.00005, weights);
        assertThat(needed).isGreaterThan(1_000_000);
        CliRun r = CliRun.of("", "analyze", "--servers", upstreams(), "--target-cov", "0.00005");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr()).contains("--target-cov 5.0E-5 needs " + needed + " points per weight",
                "a ring allows at most 1000000", "expected CoV " + RingAnalysis.expectedCov(weights, 1_000_000),
                "choose a larger target");
    }

    // ---- diff ----

    @Test
    void diffOfV1AgainstV2IsTheExactRingDiff() throws Exception {
        CliRun r = CliRun.of("", "diff", "--servers", upstreams(), "--against", upstreams(), "--ring", "v2");
        assertThat(r.stderr()).isEmpty();
        assertThat(r.status()).isZero();
        Map<String, Object> json = JsonChecker.object(r.stdout());
        RingDiff<String> d = RingDiff.compare(KetamaRing.build(RingVersion.V1, TestData.nginxServers()),
                KetamaRing.build(RingVersion.V2, 16, TestData.nginxServers()));
        assertThat(num(json, "movedHashes")).isEqualTo(d.movedHashes());
        assertThat(num(json, "movedFraction")).isEqualTo(d.movedFraction());
        @SuppressWarnings("unchecked")
        Map<String, Object> after = (Map<String, Object>) json.get("after");
        assertThat(after).containsEntry("ring", "v2");
        assertThat(num(after, "pointsPerWeight")).isEqualTo(16);
        List<Map<String, Object>> servers = list(json, "servers");
        assertThat(servers).hasSize(9);
        for (Map<String, Object> s : servers) {
            NodeChange c = d.perNode().get((String) s.get("server"));
            assertThat(num(s, "gainedHashes")).isEqualTo(c.gained());
            assertThat(num(s, "lostHashes")).isEqualTo(c.lost());
        }
    }

    @Test
    void diffOfAMembershipChangeInheritsRingOptionsAndShowsOnlyTheNewServerGaining() throws Exception {
        Path before = file("before.txt", "10.0.0.1:80\n10.0.0.2:80\n10.0.0.3:80\n");
        Path after = file("after.txt", "10.0.0.1:80\n10.0.0.2:80\n10.0.0.3:80\n10.0.0.4:80\n");
        CliRun r = CliRun.of("", "diff", "--servers", before.toString(), "--ring", "v2", "--points-per-weight", "64",
                "--against", after.toString());
        assertThat(r.status()).isZero();
        Map<String, Object> json = JsonChecker.object(r.stdout());
        @SuppressWarnings("unchecked")
        Map<String, Object> b = (Map<String, Object>) json.get("after");
        assertThat(b).containsEntry("ring", "v2");
        assertThat(num(b, "pointsPerWeight")).isEqualTo(64);
        KetamaRing<String> four = KetamaRing.build(RingVersion.V2, 64, nodes("nginx", "10.0.0.1:80", "10.0.0.2:80", "10.0.0.3:80", "10.0.0.4:80"));
        long ownedByNew = RingAnalysis.of(four).shares().get(3).ownedHashes();
        assertThat(num(json, "movedHashes")).isEqualTo(ownedByNew);
        for (Map<String, Object> s : list(json, "servers")) {
            boolean isNew = s.get("server").equals("10.0.0.4:80");
            assertThat(num(s, "gainedHashes")).isEqualTo(isNew ? ownedByNew : 0);
            if (isNew) {
                assertThat(num(s, "lostHashes")).isZero();
            }
        }
    }

    // ---- help ----

    @Test
    void helpPrintsUsageAndSucceeds() {
        CliRun r = CliRun.of("", "--help");
        assertThat(r.status()).isZero();
        assertThat(r.stdout()).contains("route", "analyze", "diff", "--candidates", "--target-cov", "--against");
        assertThat(r.stderr()).isEmpty();
    }

    static double num(Map<String, Object> m, String key) {
        assertThat(m).containsKey(key);
        return ((BigDecimal) m.get(key)).doubleValue();
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> list(Map<String, Object> m, String key) {
        return (List<Map<String, Object>>) m.get(key);
    }
}
