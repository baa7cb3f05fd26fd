package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The expected outputs published in pingora-ketama's own unit tests (src/lib.rs), which use
 * socket addresses: pingora style identities, v1 ring.
 */
class PingoraVectorsTest {

    private static KetamaRing<String> ring(String... addresses) {
        List<Node<String>> nodes = new ArrayList<>();
        for (String a : addresses) {
            nodes.add(Node.of(HashIdentity.pingora(a), 1, a));
        }
        return KetamaRing.build(RingVersion.V1, nodes);
    }

    private static String at(KetamaRing<String> r, String key) {
        return r.locate(key.getBytes(StandardCharsets.UTF_8)).payload();
    }

    /** pingora's node_iter walks points, not distinct nodes: the next {@code n} point owners. */
    private static List<String> walk(KetamaRing<String> r, String key, int n) {
        List<String> out = new ArrayList<>();
        int pos = r.points().position(Crc32.hashUtf8(key));
        for (int i = 0; i < n; i++) {
            out.add(r.node(r.points().nodeIndexAt(pos)).payload());
            pos = (pos + 1) % r.pointCount();
        }
        return out;
    }

    @Test
    void consistencyAfterAddingHost() {
        KetamaRing<String> ten = ring(IntStream.rangeClosed(1, 10).mapToObj(u -> "127.0.0.%d:6443".formatted(u)).toArray(String[]::new));
        KetamaRing<String> eleven = ring(IntStream.rangeClosed(1, 11).mapToObj(u -> "127.0.0.%d:6443".formatted(u)).toArray(String[]::new));
        for (KetamaRing<String> r : List.of(ten, eleven)) {
            assertThat(at(r, "a")).isEqualTo("127.0.0.10:6443");
            assertThat(at(r, "b")).isEqualTo("127.0.0.5:6443");
        }
    }

    @Test
    void matchesNginxSample() {
        KetamaRing<String> r = ring("127.0.0.1:7777", "127.0.0.1:7778");
        assertThat(at(r, "/some/path")).isEqualTo("127.0.0.1:7778");
        assertThat(at(r, "/some/longer/path")).isEqualTo("127.0.0.1:7777");
        assertThat(at(r, "/sad/zaidoon")).isEqualTo("127.0.0.1:7778");
        assertThat(at(r, "/g")).isEqualTo("127.0.0.1:7777");
        assertThat(at(r, "/pingora/team/is/cool/and/this/is/a/long/uri")).isEqualTo("127.0.0.1:7778");
        assertThat(at(r, "/i/am/not/confident/in/this/code")).isEqualTo("127.0.0.1:7777");
    }

    @Test
    void crateDocExample() {
        List<Node<String>> nodes = List.of(
                Node.of(HashIdentity.pingora("127.0.0.1:12345"), 1, "127.0.0.1:12345"),
                Node.of(HashIdentity.pingora("127.0.0.2:12345"), 2, "127.0.0.2:12345"),
                Node.of(HashIdentity.pingora("127.0.0.3:12345"), 3, "127.0.0.3:12345"));
        KetamaRing<String> r = KetamaRing.build(RingVersion.V1, nodes);
        assertThat(at(r, "some_key")).isEqualTo("127.0.0.3:12345");
        assertThat(at(r, "another_key")).isEqualTo("127.0.0.3:12345");
        assertThat(at(r, "last_key")).isEqualTo("127.0.0.2:12345");
    }

    @Test
    void nodeIteration() {
        KetamaRing<String> r = ring("127.0.0.1:7777", "127.0.0.1:7778", "127.0.0.1:7779");
        assertThat(walk(r, "doghash", 8)).containsExactly(
                "127.0.0.1:7778", "127.0.0.1:7779", "127.0.0.1:7779", "127.0.0.1:7777",
                "127.0.0.1:7777", "127.0.0.1:7778", "127.0.0.1:7778", "127.0.0.1:7779");
        // distinct failover order is the same walk with repeats dropped
        assertThat(r.candidates("doghash".getBytes(StandardCharsets.UTF_8), 3)).extracting(Node::payload)
                .containsExactly("127.0.0.1:7778", "127.0.0.1:7779", "127.0.0.1:7777");

        KetamaRing<String> dropped = ring("127.0.0.1:7777", "127.0.0.1:7779");
        assertThat(walk(dropped, "doghash", 5)).containsExactly(
                "127.0.0.1:7779", "127.0.0.1:7779", "127.0.0.1:7777", "127.0.0.1:7777", "127.0.0.1:7779");

        // pingora walks a whole turn of a one-host ring and is back at its start: the ring's own walk
        // (what failover reads) takes every point once, from the key's point round past the end of the
        // circle, and stops there
        KetamaRing<String> single = ring("127.0.0.1:7777");
        assertThat(single.pointCount()).isEqualTo(160);
        assertOneTurnFrom(single, "doghash");
        assertThat(list(single.failover("doghash"))).extracting(Node::payload).containsExactly("127.0.0.1:7777");
        assertOneTurnFrom(r, "doghash");
    }

    /** The ring's point walk from {@code key}'s point: each point once, in ring order, wrapping at the end, then over. */
    private static void assertOneTurnFrom(KetamaRing<String> r, String key) {
        int n = r.pointCount();
        int start = r.points().position(Crc32.hashUtf8(key));
        assertThat(start).isBetween(0, n - 1);
        PointWalk turn = PointWalk.full(r.table(), start);
        for (int i = 0; i < n; i++) {
            assertThat(turn.next()).as("step %d of %d from point %d", i, n, start).isEqualTo(r.points().nodeIndexAt((start + i) % n));
        }
        assertThat(turn.next()).as("after one turn, back at point %d, the walk is over", start).isEqualTo(-1);
    }

    private static List<Node<String>> list(java.util.Iterator<Node<String>> it) {
        List<Node<String>> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    @Test
    void emptyRing() {
        KetamaRing<String> r = ring();
        assertThat(r.locate("doghash")).isNull();
        assertThat(r.points().position(Crc32.hashUtf8("doghash"))).isEqualTo(-1);
        assertThat(r.failover("doghash")).isExhausted();
        assertThat(r.candidates("doghash".getBytes(StandardCharsets.UTF_8), 3)).isEmpty();
    }

    @Test
    void ipv6RingPingoraStyle() {
        KetamaRing<String> r = ring("[::1]:7777", "[::1]:7778", "[::1]:7779");
        assertThat(walk(r, "doghash", 7)).containsExactly(
                "[::1]:7777", "[::1]:7778", "[::1]:7777", "[::1]:7778", "[::1]:7778", "[::1]:7777", "[::1]:7779");
    }
}
