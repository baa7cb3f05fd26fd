package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link HashStyle#HASHRING} against what the real {@code hashring} npm module 3.2.0 answered,
 * recorded by {@code core/src/test/node/record-hashring.sh} into
 * {@code hashring/hashring-3.2.0.vectors.gz} (node is needed only to re-record). Eleven server
 * sets (1 to 2,000 servers, IPv4, IPv6 and named, equal and unequal weights, 7 and 28 servers whose
 * {@code double} point counts round down to 39 digests): the continuum (every distinct point and
 * its owner, hashed; every point several servers made, in full), lookups by hash at both ends of
 * the circle and at and around the points, the owner of 100,000 keys and {@code range(key, 3)} of
 * 20,000.
 */
class HashringVectorsTest {

    private static final String VECTORS = "/hashring/hashring-3.2.0.vectors.gz";
    private static final Pattern SERVER = Pattern.compile("\\[\"([^\"]*)\",(\\d+)\\]");

    /** One recorded server set. */
    private record Case(String name, List<String> servers, List<Integer> weights, Map<String, String> lines,
                        List<String> equal) {

        /** Built once per case for all tests (rings are immutable). */
        KetamaRing<Integer> ring() {
            return RINGS.computeIfAbsent(name, k -> build());
        }

        private KetamaRing<Integer> build() {
            List<Node<Integer>> nodes = new ArrayList<>();
            for (int i = 0; i < servers.size(); i++) {
                nodes.add(Node.of(HashStyle.HASHRING.identity(servers.get(i)), weights.get(i), i));
            }
            return KetamaRing.build(HashStyle.HASHRING, nodes);
        }
    }

    private static final Map<String, KetamaRing<Integer>> RINGS = new java.util.concurrent.ConcurrentHashMap<>();
    private static List<Case> cases;
    private static int keyCount;
    private static int rangeKeys;

    @BeforeAll
    static void read() throws IOException {
        cases = new ArrayList<>();
        try (InputStream in = HashringVectorsTest.class.getResourceAsStream(VECTORS)) {
            assertThat(in).as(VECTORS).isNotNull();
            BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(in), StandardCharsets.UTF_8));
            String header = r.readLine();
            assertThat(header).startsWith("# hashring 3.2.0 ");
            String[] sizes = r.readLine().split(" ");
            keyCount = Integer.parseInt(sizes[2]);
            rangeKeys = Integer.parseInt(sizes[4]);
            Case current = null;
            for (String line; (line = r.readLine()) != null; ) {
                int space = line.indexOf(' ');
                String tag = line.substring(0, space);
                String rest = line.substring(space + 1);
                if (tag.equals("case")) {
                    current = new Case(rest, new ArrayList<>(), new ArrayList<>(), new LinkedHashMap<>(), new ArrayList<>());
                    cases.add(current);
                } else if (tag.equals("servers")) {
                    Matcher m = SERVER.matcher(rest);
                    while (m.find()) {
                        current.servers().add(m.group(1));
                        current.weights().add(Integer.parseInt(m.group(2)));
                    }
                } else if (tag.equals("equal")) {
                    current.equal().add(rest);
                } else {
                    current.lines().put(tag, rest);
                }
            }
        }
        assertThat(cases).hasSize(11);
        assertThat(keyCount).isEqualTo(100_000);
    }

    /** xorshift32, identical to record-hashring.js. */
    private static final class XorShift {
        private int x;

        XorShift(int seed) {
            x = seed;
        }

        long next() {
            x ^= x << 13;
            x ^= x >>> 17;
            x ^= x << 5;
            return Integer.toUnsignedLong(x);
        }
    }

    /** The keys record-hashring.js asked about, regenerated. */
    static String[] keys(int seed, int count) {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789/-_.:ABCXYZ";
        String[] wide = {"é", "日本", "\uD83D\uDE00", "ü"};
        XorShift next = new XorShift(seed);
        String[] out = new String[count];
        for (int i = 0; i < count; i++) {
            long a = next.next();
            int len = (int) (1 + a % (next.next() % 10 == 0 ? 250 : 40));
            StringBuilder s = new StringBuilder();
            for (int j = 0; j < len; j++) {
                long r = next.next();
                s.append(r % 40 == 0 ? wide[(int) ((r >>> 8) % wide.length)] : String.valueOf(alphabet.charAt((int) ((r >>> 8) % alphabet.length()))));
            }
            out[i] = s.toString();
        }
        return out;
    }

    @Test
    void theContinuumIsHashringsPointForPoint() throws Exception {
        for (Case c : cases) {
            KetamaRing<Integer> ring = c.ring();
            String[] points = c.lines().get("points").split(" ");
            assertThat(ring.generatedPointCount()).as(c.name()).isEqualTo(Long.parseLong(points[0]));
            assertThat(ring.pointCount()).as(c.name()).isEqualTo(Integer.parseInt(points[1]));
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            int[] hashes = ring.points().hashes();
            for (int i = 0; i < hashes.length; i++) {
                sha.update((Integer.toUnsignedString(hashes[i]) + " " + ring.points().nodeIndexAt(i) + "\n").getBytes(StandardCharsets.US_ASCII));
            }
            assertThat(HexFormat.of().formatHex(sha.digest())).as("%s: every point and its owner", c.name()).isEqualTo(points[2]);
        }
    }

    @Test
    void aPointSeveralServersMakeBelongsToTheFirstAndFailoverListsThemAllInInputOrder() {
        int equalPoints = 0;
        for (Case c : cases) {
            KetamaRing<Integer> ring = c.ring();
            for (String equal : c.equal()) {
                long[] parts = Arrays.stream(equal.split(" ")).mapToLong(Long::parseLong).toArray();
                int hash = (int) parts[0];
                List<Integer> servers = new ArrayList<>();
                for (int i = 1; i < parts.length; i++) {
                    if (!servers.contains((int) parts[i])) {
                        servers.add((int) parts[i]);
                    }
                }
                assertThat(ring.nodeIndexForHash(hash)).as("%s, point %s", c.name(), equal).isEqualTo(servers.get(0));
                List<Integer> failover = ring.candidatesForHash(hash, servers.size()).stream().map(Node::payload).toList();
                assertThat(failover).as("%s, failover at point %s", c.name(), equal).isEqualTo(servers);
                equalPoints++;
            }
        }
        assertThat(equalPoints).as("points several servers made, in the 2000-server set").isEqualTo(20);
    }

    @Test
    void lookupsByHashAtTheEndsOfTheCircleAndAtAndAroundPointsMatch() {
        for (Case c : cases) {
            KetamaRing<Integer> ring = c.ring();
            String[] probes = c.lines().get("hashes").split(",");
            for (String probe : probes) {
                int colon = probe.indexOf(':');
                int hash = (int) Long.parseLong(probe.substring(0, colon));
                int expected = Integer.parseInt(probe.substring(colon + 1));
                assertThat(ring.nodeIndexForHash(hash)).as("%s, find(%s)", c.name(), probe.substring(0, colon)).isEqualTo(expected);
            }
            assertThat(probes.length).isGreaterThanOrEqualTo(12);
        }
    }

    @Test
    void everyKeyHasHashringsOwner() {
        String[] keys = keys(13, keyCount);
        List<String> mismatches = new ArrayList<>();
        for (Case c : cases) {
            KetamaRing<Integer> ring = c.ring();
            String[] owners = c.lines().get("owners").split(",");
            assertThat(owners).hasSize(keyCount);
            for (int i = 0; i < keyCount; i++) {
                int expected = Integer.parseInt(owners[i]);
                int byText = ring.locate(keys[i]).payload();
                int byBytes = ring.locate(keys[i].getBytes(StandardCharsets.UTF_8)).payload();
                if (byText != expected || byBytes != expected) {
                    mismatches.add(c.name() + ", key '" + keys[i] + "': hashring " + expected + ", ours " + byText + " / " + byBytes);
                }
            }
        }
        assertThat(mismatches).isEmpty();
    }

    @Test
    void failoverIsHashringsRange() {
        String[] keys = keys(13, rangeKeys);
        List<String> mismatches = new ArrayList<>();
        int[] out = new int[3];
        for (Case c : cases) {
            KetamaRing<Integer> ring = c.ring();
            String[] ranges = c.lines().get("ranges").split(",");
            assertThat(ranges).hasSize(rangeKeys);
            for (int i = 0; i < rangeKeys; i++) {
                List<Integer> expected = Arrays.stream(ranges[i].split(" ")).map(Integer::valueOf).toList();
                byte[] bytes = keys[i].getBytes(StandardCharsets.UTF_8);
                int found = ring.points().candidateIndices(bytes, 0, bytes.length, out);
                List<Integer> viaIndices = Arrays.stream(out, 0, found).boxed().toList();
                List<Integer> viaIterator = new ArrayList<>();
                for (var it = ring.failover(keys[i]); it.hasNext() && viaIterator.size() < 3; ) {
                    viaIterator.add(it.next().payload());
                }
                if (!viaIndices.equals(expected) || !viaIterator.equals(expected)) {
                    mismatches.add(c.name() + ", key '" + keys[i] + "': hashring " + expected + ", ours " + viaIndices + " / " + viaIterator);
                }
            }
        }
        assertThat(mismatches).isEmpty();
    }
}
