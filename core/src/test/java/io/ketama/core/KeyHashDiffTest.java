package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RingDiff} between rings that hash keys differently (MD5 and CRC-32): the expected share
 * over keys, whose per-owner gains and losses add up exactly, and which counting real keys confirms.
 */
class KeyHashDiffTest {

    private static List<Node<String>> servers(HashStyle style) {
        List<Node<String>> out = new ArrayList<>();
        for (int i = 1; i <= 7; i++) {
            String s = "10.0.0." + i + ":11211";
            out.add(Node.of(style.identity(s), 1 + i % 3, s));
        }
        return out;
    }

    @Test
    void gainsAndLossesAddUpToTheMovedShareAndRealKeysAgree() {
        KetamaRing<String> spy = KetamaRing.build(HashStyle.SPYMEMCACHED, servers(HashStyle.SPYMEMCACHED));
        KetamaRing<String> v2 = KetamaRing.build(RingVersion.V2, servers(HashStyle.NGINX));
        RingDiff<String> d = RingDiff.compare(spy, v2);
        assertThat(d.keyHashesDiffer()).isTrue();
        long gained = 0;
        long lost = 0;
        for (Map.Entry<String, NodeChange> e : d.perNode().entrySet()) {
            gained += e.getValue().gained();
            lost += e.getValue().lost();
        }
        assertThat(gained).isEqualTo(d.movedHashes());
        assertThat(lost).isEqualTo(d.movedHashes());

        // 200,000 keys: the share that changes owner lies within 5 standard errors of the expectation
        Random random = new Random(3);
        int keys = 200_000;
        int moved = 0;
        for (int i = 0; i < keys; i++) {
            byte[] key = ("/k/" + random.nextLong()).getBytes(StandardCharsets.UTF_8);
            moved += Objects.equals(spy.locate(key).payload(), v2.locate(key).payload()) ? 0 : 1;
        }
        double p = d.movedFraction();
        double stdErr = Math.sqrt(p * (1 - p) / keys);
        assertThat(moved / (double) keys).isBetween(p - 5 * stdErr, p + 5 * stdErr);

        RingDiff<String> same = RingDiff.compare(spy, KetamaRing.build(HashStyle.HASHRING, servers(HashStyle.HASHRING)));
        assertThat(same.keyHashesDiffer()).isFalse();
    }
}
