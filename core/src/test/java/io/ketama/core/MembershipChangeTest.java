package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Consistency: adding a node moves keys only to it, removing a node moves only its keys. Checked
 * exactly over the 2^32 hash space (RingDiff) and over 200,000 keys.
 */
class MembershipChangeTest {

    private static final int KEYS = 200_000;

    private static List<Node<String>> servers(int n) {
        List<Node<String>> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            String a = "10.0.1." + i + ":11211";
            out.add(Node.of(HashIdentity.nginx(a), 1 + i % 3, a));
        }
        return out;
    }

    private static byte[] key(int i) {
        return ("/object/" + i + "?v=" + (i * 2654435761L)).getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0} at {1} points per weight, new node first in input: {2}")
    @CsvSource({"V1, 160, false", "V1, 160, true", "V2, 16, false", "V2, 16, true", "V2, 160, true"})
    void addingANodeMovesKeysOnlyToIt(RingVersion version, int points, boolean first) {
        List<Node<String>> before = servers(20);
        Node<String> added = Node.of(HashIdentity.nginx("10.0.2.1:11211"), 2, "10.0.2.1:11211");
        List<Node<String>> after = new ArrayList<>(before);
        after.add(first ? 0 : after.size(), added);
        KetamaRing<String> a = KetamaRing.build(version, points, before);
        KetamaRing<String> b = KetamaRing.build(version, points, after);

        RingDiff<String> diff = RingDiff.compare(a, b);
        long ownedByNew = RingAnalysis.of(b).shares().get(first ? 0 : 20).ownedHashes();
        assertThat(diff.movedHashes()).isEqualTo(ownedByNew).isPositive();
        for (Map.Entry<String, NodeChange> e : diff.perNode().entrySet()) {
            if (e.getKey().equals(added.payload())) {
                assertThat(e.getValue()).isEqualTo(new NodeChange(ownedByNew, 0));
            } else {
                assertThat(e.getValue().gained()).as(e.getKey()).isZero();
            }
        }
        assertThat(diff.perNode().values().stream().mapToLong(NodeChange::lost).sum()).isEqualTo(ownedByNew);

        int moved = 0;
        for (int i = 0; i < KEYS; i++) {
            String was = a.locate(key(i)).payload();
            String now = b.locate(key(i)).payload();
            if (!was.equals(now)) {
                assertThat(now).as("key %d moved from %s", i, was).isEqualTo(added.payload());
                moved++;
            } else {
                assertThat(now).isNotEqualTo(added.payload());
            }
        }
        // keys sample the moved fraction: within 6 binomial standard deviations
        double p = diff.movedFraction();
        assertThat((double) moved).isCloseTo(p * KEYS, org.assertj.core.api.Assertions.within(6 * Math.sqrt(KEYS * p * (1 - p))));
    }

    @ParameterizedTest(name = "{0} at {1} points per weight, remove index {2}")
    @CsvSource({"V1, 160, 0", "V1, 160, 7", "V2, 16, 7", "V2, 16, 19"})
    void removingANodeMovesOnlyItsKeys(RingVersion version, int points, int removedIndex) {
        List<Node<String>> before = servers(20);
        List<Node<String>> after = new ArrayList<>(before);
        Node<String> removed = after.remove(removedIndex);
        KetamaRing<String> a = KetamaRing.build(version, points, before);
        KetamaRing<String> b = KetamaRing.build(version, points, after);

        RingDiff<String> diff = RingDiff.compare(a, b);
        long ownedByRemoved = RingAnalysis.of(a).shares().get(removedIndex).ownedHashes();
        assertThat(diff.movedHashes()).isEqualTo(ownedByRemoved).isPositive();
        assertThat(diff.perNode().get(removed.payload())).isEqualTo(new NodeChange(0, ownedByRemoved));
        diff.perNode().forEach((server, change) -> {
            if (!server.equals(removed.payload())) {
                assertThat(change.lost()).as(server).isZero();
            }
        });

        for (int i = 0; i < KEYS; i++) {
            String was = a.locate(key(i)).payload();
            String now = b.locate(key(i)).payload();
            if (was.equals(removed.payload())) {
                assertThat(now).isNotEqualTo(was);
            } else {
                assertThat(now).as("key %d", i).isEqualTo(was);
            }
        }
    }
}
