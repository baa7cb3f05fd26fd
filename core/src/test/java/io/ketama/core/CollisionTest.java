package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two 127.x.y.z nodes whose ketama points collide, found by search: v1 keeps the point of the node
 * that comes first in input order (nginx), v2 the point of the smaller identity, in both orders.
 */
class CollisionTest {

    private static String first;
    private static String second;
    private static int collidingHash;

    /** Walks 127.0.0.1, 127.0.0.2, … generating 160 v1 points each until two nodes share a point hash. */
    @BeforeAll
    static void findCollision() {
        Map<Integer, String> owner = new HashMap<>();
        for (int i = 1; i < 1 << 24; i++) {
            String address = "127." + (i >>> 16) + "." + ((i >>> 8) & 255) + "." + (i & 255) + ":6379";
            int prev = 0;
            byte[] id = HashIdentity.nginx(address).bytes();
            for (int j = 0; j < 160; j++) {
                prev = HashIdentityTest.chained(id, prev);
                String earlier = owner.putIfAbsent(prev, address);
                if (earlier != null && !earlier.equals(address)) {
                    first = earlier;
                    second = address;
                    collidingHash = prev;
                    return;
                }
            }
        }
        throw new AssertionError("no collision among 127.x.y.z addresses");
    }

    private static KetamaRing<String> ring(RingVersion version, String a, String b) {
        return KetamaRing.build(version, 160, List.of(
                Node.of(HashIdentity.nginx(a), 1, a), Node.of(HashIdentity.nginx(b), 1, b)));
    }

    @Test
    void v1KeepsTheEarlierNodeInInputOrder() {
        for (String[] order : new String[][] {{first, second}, {second, first}}) {
            KetamaRing<String> r = ring(RingVersion.V1, order[0], order[1]);
            assertThat(r.pointCount()).isEqualTo(319);
            assertThat(r.collidingPointCount()).isEqualTo(1);
            assertThat(RingAnalysis.of(r).collidingPoints()).isEqualTo(1);
            assertThat(r.locateHash(collidingHash).payload()).isEqualTo(order[0]);
            assertThat(r.locate(KeyForge.keyWithHash("/collide", collidingHash)).payload()).isEqualTo(order[0]);
        }
    }

    @Test
    void v2KeepsTheSmallerIdentityWhateverTheOrder() {
        String smaller = HashIdentity.nginx(first).compareTo(HashIdentity.nginx(second)) < 0 ? first : second;
        // both are IPv4 literals: the smaller identity is the smaller address, compared byte by byte
        assertThat(smaller).isEqualTo(compareIpv4(first, second) < 0 ? first : second);
        for (String[] order : new String[][] {{first, second}, {second, first}}) {
            KetamaRing<String> r = ring(RingVersion.V2, order[0], order[1]);
            assertThat(r.pointCount()).isEqualTo(319);
            assertThat(r.locateHash(collidingHash).payload()).isEqualTo(smaller);
            assertThat(r.locate(KeyForge.keyWithHash("/collide", collidingHash)).payload()).isEqualTo(smaller);
        }
        // so v1 and v2 at 160 points disagree exactly on the colliding arc when the larger node comes first
        String larger = smaller.equals(first) ? second : first;
        RingDiff<String> d = RingDiff.compare(ring(RingVersion.V1, larger, smaller), ring(RingVersion.V2, larger, smaller));
        assertThat(d.movedHashes()).isPositive();
        assertThat(d.perNode().get(smaller).gained()).isEqualTo(d.movedHashes());
        assertThat(RingDiff.compare(ring(RingVersion.V1, smaller, larger), ring(RingVersion.V2, smaller, larger)).movedHashes()).isZero();
    }

    private static int compareIpv4(String a, String b) {
        String[] x = a.substring(0, a.indexOf(':')).split("\\.");
        String[] y = b.substring(0, b.indexOf(':')).split("\\.");
        for (int i = 0; i < 4; i++) {
            int c = Integer.compare(Integer.parseInt(x[i]), Integer.parseInt(y[i]));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
