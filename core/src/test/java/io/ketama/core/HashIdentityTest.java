package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What each address form hashes: nginx text as written, pingora canonical socket addresses. */
class HashIdentityTest {

    private static String hashed(HashIdentity id) {
        return new String(id.bytes(), StandardCharsets.UTF_8).replace('\0', '|');
    }

    @ParameterizedTest(name = "nginx {0} -> {1}")
    @CsvSource(delimiter = ';', value = {
        "10.0.0.1:443;         10.0.0.1|443",
        "10.0.0.1;             10.0.0.1|",          // no port: empty port text
        "cache-a.example:11211; cache-a.example|11211", // host names hashed as written, not resolved
        "cache-a;              cache-a|",
        "[::1]:9001;           [::1]|9001",          // IPv6 keeps its brackets
        "[2001:DB8:0:0::1]:80; [2001:DB8:0:0::1]|80",  // and its spelling
        "[::1];                [::1]|",
        "unix:/var/run/c.sock; /var/run/c.sock|",     // unix: socket: the path, empty port
        "UNIX:/tmp/x;          /tmp/x|",
        "host:port;            host:port|",          // not digits after ':' -> all host
        "host:;                host|",               // nginx: the empty run of digits still splits
    })
    void nginxStyleHashesTheTextAsWritten(String address, String expected) {
        assertThat(hashed(HashIdentity.nginx(address))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "pingora {0} -> {1}")
    @CsvSource(delimiter = ';', value = {
        "127.0.0.1:6443;                  127.0.0.1|6443",
        "[::1]:7777;                      ::1|7777",
        "[::]:80;                         ::|80",
        "[2001:DB8::ABCD]:80;             2001:db8::abcd|80",          // uppercase input -> lowercase
        "[2001:0db8:0000:0000::0001]:80;  2001:db8::1|80",             // leading zeros dropped
        "[2001:db8:0:0:1:0:0:1]:80;       2001:db8::1:0:0:1|80",       // equal runs: the leftmost is ::
        "[2001:0:0:1:0:0:0:1]:80;         2001:0:0:1::1|80",           // the longest run wins, not the first
        "[2001:db8:0:1:1:1:1:1]:80;       2001:db8:0:1:1:1:1:1|80",    // a single zero group is never ::
        "[1:0:0:0:0:0:0:0]:80;            1::|80",
        "[::ffff:192.0.2.1]:80;           ::ffff:192.0.2.1|80",        // IPv4-mapped keeps the dotted tail
        "[::ffff:c000:201]:80;            ::ffff:192.0.2.1|80",        // ... however it was written
        "[fe80::1%eth0]:80;               fe80::1|80",                 // scope id dropped
        "[fe80::1%25]:80;                 fe80::1|80",
        "10.0.0.1:0;                      10.0.0.1|0",
        "10.0.0.1:65535;                  10.0.0.1|65535",
    })
    void pingoraStyleHashesTheCanonicalSocketAddress(String address, String expected) {
        assertThat(hashed(HashIdentity.pingora(address))).isEqualTo(expected);
    }

    @Test
    void pingoraStyleRefusesWhatIsNotAnIpSocketAddress() {
        for (String bad : List.of("cache-a:80", "10.0.0.1", "::1:80", "[::1]", "10.0.0.1:65536", "10.0.0.256:80",
                "010.0.0.1:80", "[::1:80", "[1:2:3:4:5:6:7:8:9]:80", "[1::2::3]:80", ":80", "10.0.0.1:",
                // hex digits are ASCII only: Character.digit would read ARABIC-INDIC ONE and FULLWIDTH A as 1 and a
                "[::\u0661]:80", "[fe80::\uFF21]:80")) {
            assertThatThrownBy(() -> HashIdentity.pingora(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + bad + "'")
                    .hasMessageContaining("a.b.c.d:PORT or [IPv6]:PORT");
        }
    }

    @Test
    void pingoraStyleFromAResolvedSocketAddressMatchesTheText() throws Exception {
        InetSocketAddress v6 = new InetSocketAddress(InetAddress.getByAddress(new byte[] {0x20, 0x01, 0x0d, (byte) 0xb8,
            0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1}), 80);
        assertThat(HashIdentity.pingora(v6)).isEqualTo(HashIdentity.pingora("[2001:db8::1:0:0:1]:80"));
        InetSocketAddress v4 = new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 6443);
        assertThat(HashIdentity.pingora(v4)).isEqualTo(HashIdentity.pingora("127.0.0.1:6443"));
        assertThatThrownBy(() -> HashIdentity.pingora(InetSocketAddress.createUnresolved("cache-a", 80)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unresolved");
    }

    @Test
    void ipv6InBothStylesGivesDifferentPointsAndTheNginxOneHashesTheBrackets() {
        Node<String> nginx = Node.of(HashIdentity.nginx("[::1]:7777"), 1, "n");
        Node<String> pingora = Node.of(HashIdentity.pingora("[::1]:7777"), 1, "p");
        int[] n = KetamaRing.build(RingVersion.V1, List.of(nginx)).points().hashes();
        int[] p = KetamaRing.build(RingVersion.V1, List.of(pingora)).points().hashes();
        assertThat(n).doesNotContain(p[0]);
        assertThat(toSet(n)).contains(firstPoint("[::1]\u00007777"));
        assertThat(toSet(p)).contains(firstPoint("::1\u00007777"));
    }

    @Test
    void serversWithoutPortAndHostNamesBuildRingsFromTheirTextAlone() {
        List<Node<String>> nodes = new ArrayList<>();
        for (String s : List.of("10.0.0.1", "cache-a", "cache-b.example:11211", "unix:/run/c.sock")) {
            nodes.add(Node.of(HashIdentity.nginx(s), 1, s));
        }
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V1, nodes);
        assertThat(ring.pointCount()).isEqualTo(4 * 160);
        Set<Integer> points = toSet(ring.points().hashes());
        assertThat(points).contains(firstPoint("10.0.0.1\u0000"), firstPoint("cache-a\u0000"),
                firstPoint("cache-b.example\u000011211"), firstPoint("/run/c.sock\u0000"));
        // every point of each node, chained as nginx does, lands on that node
        for (int i = 0; i < nodes.size(); i++) {
            byte[] id = nodes.get(i).identity().bytes();
            int prev = 0;
            for (int j = 0; j < 160; j++) {
                prev = chained(id, prev);
                assertThat(ring.nodeIndexForHash(prev)).isEqualTo(i);
            }
        }
    }

    @Test
    void weightBelowOneIsRefusedNamingTheNode() {
        assertThatThrownBy(() -> Node.of(HashIdentity.nginx("cache-a:80"), 0, "x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cache-a:80").hasMessageContaining("an integer from 1 to 1000");
        assertThatThrownBy(() -> Node.of(HashIdentity.nginx("cache-a:80"), -2, "x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-2");
    }

    @Test
    void v2OrderPutsIpv4BeforeIpv6ThenAddressBytesThenPortThenOtherIdentities() {
        List<HashIdentity> sorted = new ArrayList<>(List.of(
                HashIdentity.nginx("cache-a:80"),
                HashIdentity.pingora("[::1]:80"),
                HashIdentity.pingora("10.0.0.2:80"),
                HashIdentity.pingora("10.0.0.10:80"),
                HashIdentity.pingora("10.0.0.2:9"),
                HashIdentity.pingora("255.255.255.255:1")));
        sorted.sort(null);
        assertThat(sorted).extracting(HashIdentity::toString).containsExactly(
                "10.0.0.2:9", "10.0.0.2:80", "10.0.0.10:80", "255.255.255.255:1", "[::1]:80", "cache-a:80");
    }

    @Test
    void identitiesThatHashTheSameBytesAreStillOrderedConsistentlyWithEquals() {
        // a NUL inside host or port moves the separator; unpaired surrogates both encode as '?'
        List<HashIdentity[]> pairs = List.of(
                new HashIdentity[] {HashIdentity.of("a", "\0b"), HashIdentity.of("a\0", "b")},
                new HashIdentity[] {HashIdentity.of("cache-\uD800", "80"), HashIdentity.of("cache-\uDBFF", "80")});
        for (HashIdentity[] p : pairs) {
            HashIdentity a = p[0];
            HashIdentity b = p[1];
            assertThat(a).isNotEqualTo(b);
            assertThat(Integer.signum(a.compareTo(b))).as("%s vs %s", a, b).isNotZero().isEqualTo(-Integer.signum(b.compareTo(a)));
            // so v2 gives their (identical) points to the same one whatever the input order
            List<Node<String>> ab = List.of(Node.of(a, 1, "a"), Node.of(b, 1, "b"));
            List<Node<String>> ba = List.of(Node.of(b, 1, "b"), Node.of(a, 1, "a"));
            assertThat(KetamaRing.build(RingVersion.V2, ab).locateHash(0).payload())
                    .isEqualTo(KetamaRing.build(RingVersion.V2, ba).locateHash(0).payload());
        }
    }

    /** crc32(text ‖ 00 00 00 00): a node's first point, by the JDK's CRC. */
    static int firstPoint(String hashedText) {
        return chained(hashedText.getBytes(StandardCharsets.UTF_8), 0);
    }

    static int chained(byte[] identity, int previous) {
        CRC32 c = new CRC32();
        c.update(identity);
        c.update(new byte[] {(byte) previous, (byte) (previous >>> 8), (byte) (previous >>> 16), (byte) (previous >>> 24)});
        return (int) c.getValue();
    }

    private static Set<Integer> toSet(int[] a) {
        Set<Integer> s = new java.util.HashSet<>();
        for (int v : a) {
            s.add(v);
        }
        return s;
    }
}
