package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/** The edges of the circle: above the last point, exactly on a point, and keys hashing to 0 and 0xFFFFFFFF. */
class WrapAroundTest {

    private static int jdkCrc(byte[] b) {
        CRC32 c = new CRC32();
        c.update(b);
        return (int) c.getValue();
    }

    @Test
    void forgedKeysHaveTheHashesAskedFor() {
        for (int target : new int[] {0, -1, 0x12345678, Integer.MIN_VALUE}) {
            byte[] key = KeyForge.keyWithHash("/some/uri?", target);
            assertThat(jdkCrc(key)).isEqualTo(target);
            assertThat(Crc32.hash(key)).isEqualTo(target);
        }
    }

    @Test
    void keysAboveTheLastPointWrapToTheFirstAndPointsOwnTheirOwnHash() throws Exception {
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V1, TestData.nginxServers());
        int last = ring.pointCount() - 1;
        int lastHash = ring.points().hashAt(last);
        int firstHash = ring.points().hashAt(0);
        assertThat(Integer.compareUnsigned(lastHash, -1)).isNegative(); // true of this ring: room above the last point
        Node<String> firstOwner = ring.node(ring.points().nodeIndexAt(0));
        Node<String> lastOwner = ring.node(ring.points().nodeIndexAt(last));
        // positions show the wrap even where one node owns both ends (as 10.0.0.8 does here)
        assertThat(ring.points().position(lastHash)).isEqualTo(last);
        assertThat(ring.points().position(lastHash + 1)).isZero();
        assertThat(ring.points().position(-1)).isZero();
        assertThat(ring.points().position(0)).isZero();
        assertThat(ring.points().position(firstHash)).isZero();
        assertThat(ring.points().position(firstHash + 1)).isEqualTo(1);
        assertThat(ring.points().position(Crc32.hash(KeyForge.keyWithHash("/zero", 0)))).isZero();
        assertThat(ring.points().position(Crc32.hash(KeyForge.keyWithHash("/max", -1)))).isZero();

        assertThat(ring.locateHash(lastHash + 1)).isEqualTo(firstOwner);
        assertThat(ring.locateHash(lastHash)).isEqualTo(lastOwner);
        assertThat(ring.locateHash(lastHash - 1)).isEqualTo(lastOwner);
        assertThat(ring.locateHash(firstHash)).isEqualTo(firstOwner);
        assertThat(ring.locateHash(firstHash + 1)).isEqualTo(ring.node(ring.points().nodeIndexAt(1)));

        // real keys: hashing to 0, to 0xFFFFFFFF (both before/after every point), and exactly onto points
        assertThat(ring.locate(KeyForge.keyWithHash("/zero", 0))).isEqualTo(firstOwner);
        assertThat(ring.locate(KeyForge.keyWithHash("/max", -1))).isEqualTo(firstOwner);
        assertThat(ring.locate(KeyForge.keyWithHash("/on-last", lastHash))).isEqualTo(lastOwner);
        assertThat(ring.locate(KeyForge.keyWithHash("/above-last", lastHash + 1))).isEqualTo(firstOwner);
        for (int p = 0; p < ring.pointCount(); p += 997) {
            assertThat(ring.locate(KeyForge.keyWithHash("/on-" + p, ring.points().hashAt(p)))).isEqualTo(ring.node(ring.points().nodeIndexAt(p)));
        }
        // the failover walk also wraps: from above the last point it starts at point 0
        assertThat(ring.failoverForHash(-1).next()).isEqualTo(firstOwner);
    }

    @Test
    void aTwoPointRingWrapsAtBothEndsOfTheHashSpace() {
        // A one-point-per-node ring whose points we know, then a key forged onto 0xFFFFFFFF and 0.
        KetamaRing<String> ring = KetamaRing.build(RingVersion.V2, 1, List.of(
                Node.of(HashIdentity.nginx("a:1"), 1, "a"), Node.of(HashIdentity.nginx("b:1"), 1, "b")));
        int lo = ring.points().hashAt(0);
        int hi = ring.points().hashAt(1);
        assertThat(Integer.compareUnsigned(lo, hi)).isNegative();
        String low = ring.node(ring.points().nodeIndexAt(0)).payload();
        String high = ring.node(ring.points().nodeIndexAt(1)).payload();
        assertThat(ring.locate(KeyForge.keyWithHash("k", 0)).payload()).isEqualTo(low);
        assertThat(ring.locate(KeyForge.keyWithHash("k", -1)).payload()).isEqualTo(low);
        assertThat(ring.locate(KeyForge.keyWithHash("k", hi)).payload()).isEqualTo(high);
        assertThat(ring.locate(KeyForge.keyWithHash("k", hi + 1)).payload()).isEqualTo(low);
        assertThat(ring.locate(KeyForge.keyWithHash("k", lo + 1)).payload()).isEqualTo(high);
    }
}
