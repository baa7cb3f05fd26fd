package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * v2 at 160 points per weight makes the same points as v1 and differs only in which node keeps a
 * colliding point, so it sends fewer than 0.1 % of keys elsewhere (here: exactly, and over keys).
 */
class VersionAgreementTest {

    @Test
    void v2At160DiffersFromV1OnFewerThanATenthOfAPercentOfKeys() throws Exception {
        List<Node<String>> nodes = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            String a = "172.16." + (i / 200) + "." + (i % 200 + 1) + ":11211";
            nodes.add(Node.of(HashIdentity.nginx(a), 1, a));
        }
        Collections.shuffle(nodes, new Random(3)); // input order decides v1 collisions, not v2 ones
        KetamaRing<String> v1 = KetamaRing.build(RingVersion.V1, nodes);
        KetamaRing<String> v2 = KetamaRing.build(RingVersion.V2, 160, nodes);
        assertThat(v1.collidingPointCount()).isPositive(); // 320,000 points: a few collisions are expected
        assertThat(v2.collidingPointCount()).isEqualTo(v1.collidingPointCount());

        RingDiff<String> diff = RingDiff.compare(v1, v2);
        assertThat(diff.movedHashes()).isPositive(); // some collisions went to another node: the versions really differ
        assertThat(diff.movedFraction()).isLessThan(0.001);

        int differ = 0;
        int keys = 200_000;
        for (int i = 0; i < keys; i++) {
            byte[] k = ("/v/" + i).getBytes(StandardCharsets.UTF_8);
            if (!v1.locate(k).payload().equals(v2.locate(k).payload())) {
                differ++;
            }
        }
        assertThat(differ).isLessThan(keys / 1000);

        // on the nginx sample (no collision at all) they agree everywhere
        RingDiff<String> sample = RingDiff.compare(KetamaRing.build(RingVersion.V1, TestData.nginxServers()),
                KetamaRing.build(RingVersion.V2, 160, TestData.nginxServers()));
        assertThat(sample.movedHashes()).isZero();
    }
}
