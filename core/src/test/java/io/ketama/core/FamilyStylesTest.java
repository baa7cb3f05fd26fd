package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ketama-family styles' own rules, beside the recorded vectors: lookups allocate nothing; the
 * byte and text paths of the C key hashes agree on any text; twemproxy's hash tag edge cases;
 * option checks; identities in each program's terms.
 */
class FamilyStylesTest {

    private static final HashStyle[] FAMILY = {HashStyle.TWEMPROXY_FNV1A_64, HashStyle.TWEMPROXY_MD5,
            HashStyle.LIBMEMCACHED_WEIGHTED, HashStyle.LIBMEMCACHED_KETAMA, HashStyle.LIBMEMCACHED_KETAMA_MD5,
            HashStyle.LIBMEMCACHED_SPYMEMCACHED, HashStyle.DUBBO, HashStyle.XMEMCACHED};

    private static KetamaRing<String> ring(HashStyle style, int n) {
        List<Node<String>> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String text = "10.0.0." + (i + 1) + ":" + (11211 + i % 2);
            nodes.add(Node.of(style.identity(text), 1 + i % 3, text));
        }
        return KetamaRing.build(style, nodes);
    }

    @Test
    void lookupsAllocateNothing() {
        byte[][] keys = new byte[1024][];
        String[] texts = new String[keys.length];
        for (int i = 0; i < keys.length; i++) {
            texts[i] = "/object/" + i + "/" + Integer.toHexString(i * 7919);
            keys[i] = texts[i].getBytes(StandardCharsets.UTF_8);
        }
        for (HashStyle style : FAMILY) {
            KetamaRing<String> ring = ring(style, 25);
            RingPoints<String> points = ring.points();
            long sum = 0;
            for (int round = 0; round < 30; round++) { // compiled by the last rounds
                long before = allocated();
                for (int i = 0; i < 50_000; i++) {
                    sum += points.nodeIndexForHash(ring.hashKey(keys[i & 1023]));
                    sum += points.nodeIndexForHash(ring.hashKey(texts[i & 1023]));
                }
                long bytes = allocated() - before;
                if (round == 29) {
                    assertThat(bytes).as("%s: bytes allocated by 100,000 lookups", style).isLessThan(1_000);
                }
            }
            assertThat(sum).isPositive();
        }
    }

    @Test
    void byteAndTextKeyHashesAgreeOnAnyText() {
        String[] texts = {"", "a", "clé", "ключ", "键值", "🔑x", "bad\uD800surrogate", "end\uDC00", "{tag}rest", "x{}y", "{open"};
        for (HashStyle style : FAMILY) {
            KetamaRing<String> ring = ring(style, 3);
            for (String t : texts) {
                byte[] b = t.getBytes(StandardCharsets.UTF_8);
                assertThat(ring.hashKey(t)).as("%s %s", style, t).isEqualTo(ring.hashKey(b));
            }
        }
    }

    @Test
    void cKeyHashesReadBytesAsSignedChars() {
        // known values: FNV-1a over "a" with twemproxy's truncated constants, and one-at-a-time of "a"
        byte[] a = {'a'};
        assertThat(KeyHashes.fnv1a64Truncated(a, 0, 1)).isEqualTo((0x84222325 ^ 'a') * 0x1b3);
        byte[] high = {(byte) 0xE9};
        assertThat(KeyHashes.fnv1a64Truncated(high, 0, 1)).isEqualTo((0x84222325 ^ 0xFFFFFFE9) * 0x1b3);
        int h = 0xFFFFFFE9;
        h += h << 10;
        h ^= h >>> 6;
        h += h << 3;
        h ^= h >>> 11;
        h += h << 15;
        assertThat(KeyHashes.oneAtATime(high, 0, 1)).isEqualTo(h);
    }

    @Test
    void hashTagHashesOnlyTheTaggedPartWhenThereIsOne() {
        List<Node<String>> nodes = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            nodes.add(Node.of(HashStyle.TWEMPROXY_MD5.identity("10.0.0." + (i + 1) + ":11211"), 1, "s" + i));
        }
        KetamaRing<String> tagged = KetamaRing.build(HashStyle.TWEMPROXY_MD5, HashStyle.Options.DEFAULTS.withHashTag("{}"), nodes);
        KetamaRing<String> plain = KetamaRing.build(HashStyle.TWEMPROXY_MD5, nodes);
        assertThat(tagged.hashKey("a{user1}b")).isEqualTo(plain.hashKey("user1"));
        assertThat(tagged.hashKey("{user1}")).isEqualTo(plain.hashKey("user1"));
        assertThat(tagged.hashKey("a{}b")).isEqualTo(plain.hashKey("a{}b")); // nothing between: the whole key
        assertThat(tagged.hashKey("a{b")).isEqualTo(plain.hashKey("a{b")); // not closed: the whole key
        assertThat(tagged.hashKey("")).isZero();
        assertThat(tagged.label()).isEqualTo("twemproxy-md5 hash_tag {}");
    }

    @Test
    void optionsGoOnlyWithTheirStyle() {
        List<Node<String>> nodes = List.of(Node.of(HashStyle.DUBBO.identity("10.0.0.1:20880"), 1, "a"));
        assertThatThrownBy(() -> KetamaRing.build(HashStyle.DUBBO, HashStyle.Options.DEFAULTS.withHashTag("{}"), nodes))
                .hasMessageContaining("hash tag goes only with twemproxy");
        assertThatThrownBy(() -> KetamaRing.build(HashStyle.XMEMCACHED, HashStyle.Options.DEFAULTS.withHashNodes(40), nodes))
                .hasMessageContaining("hash.nodes goes only with dubbo");
        assertThatThrownBy(() -> HashStyle.Options.DEFAULTS.withHashTag("{")).hasMessageContaining("two ASCII characters");
        assertThatThrownBy(() -> HashStyle.Options.DEFAULTS.withHashNodes(3)).hasMessageContaining("from 4 to");
        assertThat(KetamaRing.build(HashStyle.DUBBO, HashStyle.Options.DEFAULTS.withHashNodes(50), nodes).pointCount()).isEqualTo(48);
    }

    @Test
    void identitiesAreWhatEachProgramHashes() {
        assertThat(HashStyle.TWEMPROXY_MD5.identity("10.0.0.1:11211:1").serverText()).isEqualTo("10.0.0.1");
        assertThat(HashStyle.TWEMPROXY_MD5.identity("10.0.0.1:22122:3").serverText()).isEqualTo("10.0.0.1:22122");
        assertThat(HashStyle.TWEMPROXY_MD5.identity("10.0.0.1:22122:3 cache-a").serverText()).isEqualTo("cache-a");
        assertThat(HashStyle.TWEMPROXY_MD5.identity("cache-a").serverText()).isEqualTo("cache-a");
        assertThat(HashStyle.LIBMEMCACHED_WEIGHTED.identity("10.0.0.1:11211").serverText()).isEqualTo("10.0.0.1");
        assertThat(HashStyle.LIBMEMCACHED_WEIGHTED.identity("10.0.0.1").serverText()).isEqualTo("10.0.0.1");
        assertThat(HashStyle.LIBMEMCACHED_KETAMA.identity("10.0.0.1:11311").serverText()).isEqualTo("10.0.0.1:11311");
        assertThat(HashStyle.LIBMEMCACHED_SPYMEMCACHED.identity("10.0.0.1").serverText()).isEqualTo("/10.0.0.1:11211");
        assertThat(HashStyle.DUBBO.identity("dubbo://10.0.0.1:20880/a.B?hash.nodes=50").serverText()).isEqualTo("10.0.0.1:20880");
        assertThat(HashStyle.XMEMCACHED.identity("10.0.0.1:11211").serverText()).isEqualTo("/10.0.0.1:11211");
        assertThat(HashStyle.XMEMCACHED.identity("cache-a/10.0.0.1:11211").serverText()).isEqualTo("cache-a/10.0.0.1:11211");
        assertThat(HashStyle.parse("twemproxy-fnv1a_64", "style")).isEqualTo(HashStyle.TWEMPROXY_FNV1A_64);
    }

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
