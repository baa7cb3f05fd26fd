package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.SpyOracle;
import org.junit.jupiter.api.Test;

/**
 * {@link HashStyle#SPYMEMCACHED} against the real spymemcached 2.12.3 {@code KetamaNodeLocator}
 * (test scope): same servers, same keys, same answers. Many server sets (1 to 2,000 servers,
 * IPv4, IPv6 and named addresses, with and without a weight map, a server listed twice), each
 * compared point for point, at every point's hash and its neighbours, on 100,000 keys for the
 * owner and on 25,000 keys for the failover sequence (seven MD5 probes each on spymemcached's side).
 */
class SpymemcachedOracleTest {

    private static final int KEYS = 100_000;
    /** Failover asks spymemcached for seven MD5 probes per key: fewer keys keep the test within seconds. */
    private static final int FAILOVER_KEYS = 25_000;
    private static List<Case> cases;

    /** One server set, built both ways. */
    private record Case(String name, HashStyle style, KetamaRing<Integer> ring, KetamaNodeLocator spy,
                        Map<MemcachedNode, Integer> index) {

        int indexOf(MemcachedNode node) {
            return index.get(node);
        }
    }

    /** A server as spymemcached has it and as a servers file writes it. */
    private record Server(InetSocketAddress address, String text, int weight) {
    }

    private static Server ipv4(Random r, int weight) throws UnknownHostException {
        byte[] ip = {10, (byte) r.nextInt(256), (byte) r.nextInt(256), (byte) (1 + r.nextInt(254))};
        int port = r.nextBoolean() ? 11211 : 1024 + r.nextInt(60000);
        InetAddress a = InetAddress.getByAddress(ip);
        return new Server(new InetSocketAddress(a, port), a.getHostAddress() + ":" + port, weight);
    }

    /** A resolved host name: spymemcached hashes "name/ip:port"; nothing is looked up (the address is given). */
    private static Server named(Random r, int i, int weight) throws UnknownHostException {
        byte[] ip = {(byte) 192, (byte) 168, (byte) r.nextInt(256), (byte) (1 + r.nextInt(254))};
        String name = "cache-" + i + ".example";
        InetAddress a = InetAddress.getByAddress(name, ip);
        return new Server(new InetSocketAddress(a, 11211), name + "/" + a.getHostAddress() + ":11211", weight);
    }

    /** IPv6, written as people write it ({@code [2001:db8::5]:11211}); spymemcached hashes Java's long form. */
    private static Server ipv6(Random r, int weight) throws UnknownHostException {
        byte[] ip = new byte[16];
        ip[0] = 0x20;
        ip[1] = 0x01;
        ip[2] = 0x0d;
        ip[3] = (byte) 0xb8;
        ip[14] = (byte) r.nextInt(256);
        ip[15] = (byte) (1 + r.nextInt(254));
        String compressed = "2001:db8::" + Integer.toHexString((ip[14] & 0xFF) << 8 | (ip[15] & 0xFF));
        return new Server(new InetSocketAddress(InetAddress.getByAddress(ip), 11211), "[" + compressed + "]:11211", weight);
    }

    private static List<Server> servers(long seed, int n, int maxWeight) throws UnknownHostException {
        Random r = new Random(seed);
        List<Server> out = new ArrayList<>();
        java.util.Set<InetSocketAddress> seen = new java.util.HashSet<>();
        while (out.size() < n) {
            int w = 1 + r.nextInt(maxWeight);
            int kind = r.nextInt(10);
            Server s = kind < 6 ? ipv4(r, w) : kind < 8 ? named(r, out.size(), w) : ipv6(r, w);
            if (seen.add(s.address())) {
                out.add(s);
            }
        }
        return out;
    }

    private static Case build(String name, HashStyle style, List<Server> servers, boolean weightMap) {
        List<MemcachedNode> spyNodes = new ArrayList<>();
        Map<MemcachedNode, Integer> index = new IdentityHashMap<>();
        Map<InetSocketAddress, Integer> weights = new HashMap<>();
        List<Node<Integer>> nodes = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            Server s = servers.get(i);
            MemcachedNode node = SpyOracle.node(s.address());
            spyNodes.add(node);
            index.put(node, i);
            if (weightMap) {
                weights.put(s.address(), s.weight());
            }
            nodes.add(Node.of(style.identity(s.text()), weightMap ? s.weight() : 1, i));
        }
        return new Case(name, style, KetamaRing.build(style, nodes), SpyOracle.locator(spyNodes, weights), index);
    }

    private static List<Server> equalWeights(List<Server> servers) {
        return servers.stream().map(s -> new Server(s.address(), s.text(), 1)).toList();
    }

    /** The server sets, built once for all tests (the locators are immutable once built). */
    private static synchronized List<Case> cases() throws UnknownHostException {
        if (cases == null) {
            cases = buildCases();
        }
        return cases;
    }

    private static List<Case> buildCases() throws UnknownHostException {
        List<Case> out = new ArrayList<>();
        int[] sizes = {1, 2, 3, 10, 25, 50, 107};
        for (int n : sizes) {
            List<Server> s = equalWeights(servers(n, n, 1));
            out.add(build(n + " servers, no weight map", HashStyle.SPYMEMCACHED, s, false));
            out.add(build(n + " servers, weight map of equal weights", HashStyle.SPYMEMCACHED_WEIGHTED, s, true));
            out.add(build(n + " servers, weight map 1..5", HashStyle.SPYMEMCACHED, servers(1000 + n, n, 5), true));
        }
        out.add(build("12 servers, weight map 1..100", HashStyle.SPYMEMCACHED, servers(77, 12, 100), true));
        // a server listed twice: every point collides, and TreeMap.put gives it to the later entry
        List<Server> twice = new ArrayList<>(equalWeights(servers(5, 4, 1)));
        twice.add(1, twice.get(3));
        out.add(build("a server listed twice", HashStyle.SPYMEMCACHED, twice, false));
        // 320,000 points: distinct servers make equal points too (about points^2 / 2^33 of them)
        out.add(build("2000 servers", HashStyle.SPYMEMCACHED, equalWeights(servers(2000, 2000, 1)), false));
        return out;
    }

    private static String[] keys(long seed, int count) {
        Random r = new Random(seed);
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789/-_.:ABCXYZ";
        String[] wide = {"é", "日本", "\uD83D\uDE00", "ü"};
        String[] out = new String[count];
        for (int i = 0; i < count; i++) {
            StringBuilder s = new StringBuilder();
            int len = 1 + r.nextInt(r.nextInt(10) == 0 ? 250 : 40);
            for (int j = 0; j < len; j++) {
                s.append(r.nextInt(40) == 0 ? wide[r.nextInt(wide.length)] : alphabet.charAt(r.nextInt(alphabet.length())));
            }
            out[i] = s.toString();
        }
        return out;
    }

    @Test
    void theContinuumIsSpymemcachedsPointForPoint() throws Exception {
        for (Case c : cases()) {
            TreeMap<Long, MemcachedNode> continuum = SpyOracle.continuum(c.spy());
            int[] hashes = c.ring().points().hashes();
            assertThat(hashes.length).as(c.name()).isEqualTo(continuum.size());
            int i = 0;
            for (Map.Entry<Long, MemcachedNode> e : continuum.entrySet()) {
                assertThat(Integer.toUnsignedLong(hashes[i])).as("%s point %d", c.name(), i).isEqualTo(e.getKey());
                assertThat(c.ring().points().nodeIndexAt(i)).as("%s owner of point %d", c.name(), i).isEqualTo(c.indexOf(e.getValue()));
                i++;
            }
        }
    }

    @Test
    void everyPointItsNeighboursAndBothEndsOfTheCircleGoWhereSpymemcachedSends() throws Exception {
        for (Case c : cases()) {
            List<Long> probes = new ArrayList<>(List.of(0L, 1L, 0xFFFF_FFFEL, 0xFFFF_FFFFL));
            for (long p : SpyOracle.continuum(c.spy()).keySet()) {
                probes.add(p);
                probes.add((p - 1) & 0xFFFF_FFFFL);
                probes.add((p + 1) & 0xFFFF_FFFFL);
            }
            for (long h : probes) {
                assertThat(c.ring().nodeIndexForHash((int) h)).as("%s, hash %d", c.name(), h)
                        .isEqualTo(c.indexOf(SpyOracle.nodeForHash(c.spy(), h)));
            }
        }
    }

    @Test
    void everyKeyHasSpymemcachedsOwner() throws Exception {
        String[] keys = keys(42, KEYS);
        List<String> mismatches = new ArrayList<>();
        long checked = 0;
        for (Case c : cases()) {
            for (String key : keys) {
                int expected = c.indexOf(c.spy().getPrimary(key));
                int byText = c.ring().locate(key).payload();
                int byBytes = c.ring().locate(key.getBytes(StandardCharsets.UTF_8)).payload();
                if (byText != expected || byBytes != expected) {
                    mismatches.add(c.name() + ", key '" + key + "': spymemcached " + expected + ", ours " + byText + " / " + byBytes);
                }
                checked++;
            }
        }
        assertThat(mismatches).isEmpty();
        assertThat(checked).isEqualTo((long) cases().size() * KEYS);
    }

    @Test
    void keyHashIsKetamaHash() {
        for (String key : keys(9, KEYS)) {
            long expected = DefaultHashAlgorithm.KETAMA_HASH.hash(key);
            assertThat(Integer.toUnsignedLong(Md5.hashUtf8(Md5.NO_PREFIX, key))).as(key).isEqualTo(expected);
            byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
            assertThat(Integer.toUnsignedLong(Md5.hash(bytes, 0, bytes.length))).as(key).isEqualTo(expected);
            assertThat(Integer.toUnsignedLong(JdkMd5.hashUtf8(Md5.NO_PREFIX, key))).as(key).isEqualTo(expected);
            assertThat(Integer.toUnsignedLong(JdkMd5.hash(bytes, 0, bytes.length))).as(key).isEqualTo(expected);
        }
    }

    @Test
    void failoverIsTheDistinctNodesOfSpymemcachedsSequence() throws Exception {
        String[] keys = keys(4242, FAILOVER_KEYS);
        int[] out = new int[7];
        List<String> mismatches = new ArrayList<>();
        long longerThanOne = 0;
        for (Case c : cases()) {
            for (String key : keys) {
                List<Integer> expected = new ArrayList<>();
                for (Iterator<MemcachedNode> it = c.spy().getSequence(key); it.hasNext(); ) {
                    int n = c.indexOf(it.next());
                    if (!expected.contains(n)) {
                        expected.add(n);
                    }
                }
                byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
                int found = c.ring().points().candidateIndices(bytes, 0, bytes.length, out);
                List<Integer> viaIndices = Arrays.stream(out, 0, found).boxed().toList();
                List<Integer> viaIterator = new ArrayList<>();
                c.ring().failover(key).forEachRemaining(n -> viaIterator.add(n.payload()));
                if (!viaIndices.equals(expected) || !viaIterator.equals(expected)) {
                    mismatches.add(c.name() + ", key '" + key + "': spymemcached " + expected + ", ours " + viaIndices + " / " + viaIterator);
                }
                longerThanOne += expected.size() > 1 ? 1 : 0;
            }
        }
        assertThat(mismatches).isEmpty();
        assertThat(longerThanOne).as("keys whose probes found a second server").isGreaterThan(FAILOVER_KEYS);
    }

    @Test
    void aPointTwoServersMakeGoesToTheLaterOneAsTreeMapPutDecides() throws Exception {
        Case c = cases().stream().filter(k -> k.name().equals("a server listed twice")).findFirst().orElseThrow();
        // servers 1 and 4 are the same address: all of server 1's points are taken by server 4
        for (int i = 0; i < c.ring().pointCount(); i++) {
            assertThat(c.ring().points().nodeIndexAt(i)).isNotEqualTo(1);
        }
        assertThat(c.ring().collidingPointCount()).isEqualTo(160);
        Case big = cases().stream().filter(k -> k.name().equals("2000 servers")).findFirst().orElseThrow();
        assertThat(big.ring().collidingPointCount()).as("distinct servers that make one point").isPositive();
    }

    @Test
    void ipv6WrittenAsPeopleWriteItHashesAsJavaPrintsTheSocketAddress() throws Exception {
        // Java turns an IPv4-mapped literal into an Inet4Address, keeps a numeric zone id, and
        // prints a resolved name's IPv6 address in its long form too; no name is looked up here
        byte[] v6 = {0x20, 0x01, 0x0d, (byte) 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7};
        List<Server> servers = List.of(
                new Server(new InetSocketAddress(InetAddress.getByName("10.0.0.1"), 11211), "10.0.0.1:11211", 1),
                new Server(new InetSocketAddress(InetAddress.getByName("::ffff:10.0.0.7"), 11211), "[::ffff:10.0.0.7]:11211", 1),
                new Server(new InetSocketAddress(InetAddress.getByName("fe80::1%3"), 11211), "[fe80::1%3]:11211", 1),
                new Server(new InetSocketAddress(InetAddress.getByAddress("cache-v6.example", v6), 11211),
                        "cache-v6.example/[2001:db8::7]:11211", 1));
        Case c = build("IPv4-mapped, scoped and named IPv6", HashStyle.SPYMEMCACHED, servers, false);
        int[] hashes = c.ring().points().hashes();
        TreeMap<Long, MemcachedNode> continuum = SpyOracle.continuum(c.spy());
        assertThat(hashes).hasSize(continuum.size());
        int i = 0;
        for (Map.Entry<Long, MemcachedNode> e : continuum.entrySet()) {
            assertThat(Integer.toUnsignedLong(hashes[i])).as("point %d", i).isEqualTo(e.getKey());
            assertThat(c.ring().points().nodeIndexAt(i)).as("owner of point %d", i).isEqualTo(c.indexOf(e.getValue()));
            i++;
        }
    }

    @Test
    void aWeightMapOfEqualWeightsGivesSomeServerCountsFewerPointsAsSpymemcachedDoes() throws Exception {
        List<Server> s = equalWeights(servers(25, 25, 1));
        Case map = build("map", HashStyle.SPYMEMCACHED_WEIGHTED, s, true);
        Case none = build("none", HashStyle.SPYMEMCACHED, s, false);
        assertThat(map.ring().generatedPointCount()).isEqualTo(25 * 156);
        assertThat(none.ring().generatedPointCount()).isEqualTo(25 * 160);
        assertThat(SpyOracle.continuum(map.spy())).hasSize(25 * 156);
    }
}
