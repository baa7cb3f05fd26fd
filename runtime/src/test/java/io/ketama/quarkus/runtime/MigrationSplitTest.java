package io.ketama.quarkus.runtime;

import io.ketama.core.HashStyle;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.MigrationSettings;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

class MigrationSplitTest {

    private static final int KEYS = 1_000_000;

    private static MigrationSplit split(double share) {
        return new MigrationSplit(new MigrationSettings(MigrationSettings.Mode.SPLIT, share, false), true);
    }

    private static int[] keyHashes() {
        SplittableRandom random = new SplittableRandom(7);
        int[] hashes = new int[KEYS];
        for (int i = 0; i < KEYS; i++) {
            hashes[i] = random.nextInt();
        }
        return hashes;
    }

    @Test
    void raisingTheShareOnlyMovesKeysFromV1ToV2() {
        int[] hashes = keyHashes();
        double[] steps = {0, 0.01, 0.5, 1, 5, 10, 25, 37.5, 50, 75, 99, 99.99, 100};
        boolean[] onV2 = new boolean[KEYS];
        for (double share : steps) {
            MigrationSplit router = split(share);
            int count = 0;
            for (int i = 0; i < KEYS; i++) {
                boolean v2 = router.versionFor(hashes[i]) == RingVersion.V2;
                if (v2 != (router.versionFor(hashes[i]) == RingVersion.V2)) {
                    fail("key " + i + " changed version between two lookups at " + share + " %"); // sticky
                }
                if (onV2[i] && !v2) {
                    fail("key " + i + " left v2 when the share rose to " + share + " %"); // monotone
                }
                onV2[i] = v2;
                count += v2 ? 1 : 0;
            }
            double p = share / 100;
            double sigma = Math.sqrt(KEYS * p * (1 - p));
            assertThat((double) count).as("keys on v2 at %s %%", share).isBetween(KEYS * p - 5 * sigma - 1, KEYS * p + 5 * sigma + 1);
        }
    }

    @Test
    void theShareHasResolutionFarBelowOneHundredthOfAPercent() {
        // A key whose mixed hash lies between the thresholds of 0.01 % and 0.0101 %.
        int key = unmix((int) Math.round(0.01005 / 100 * 4294967296.0));
        assertThat(split(0.01).versionFor(key)).isEqualTo(RingVersion.V1);
        assertThat(split(0.0101).versionFor(key)).isEqualTo(RingVersion.V2);
    }

    @Test
    void theV2KeysAreSpreadAroundTheCircleNotOneArc() {
        int[] perEighth = new int[8];
        MigrationSplit router = split(10);
        for (int h : keyHashes()) {
            if (router.versionFor(h) == RingVersion.V2) {
                perEighth[h >>> 29]++;
            }
        }
        for (int count : perEighth) {
            assertThat(count).isBetween(11_500, 13_500); // 12,500 expected in each eighth of the ring
        }
    }

    @Test
    void modesAndTheDatacenterAllowlist() {
        int[] hashes = keyHashes();
        MigrationSplit v1 = new MigrationSplit(new MigrationSettings(MigrationSettings.Mode.V1, 100, false), true);
        MigrationSplit v2 = new MigrationSplit(new MigrationSettings(MigrationSettings.Mode.V2, 0, true), false);
        MigrationSplit outside = new MigrationSplit(new MigrationSettings(MigrationSettings.Mode.SPLIT, 100, false), false);
        MigrationSplit all = split(100);
        for (int i = 0; i < 10_000; i++) {
            assertThat(v1.versionFor(hashes[i])).isEqualTo(RingVersion.V1);
            assertThat(v2.versionFor(hashes[i])).isEqualTo(RingVersion.V2);
            assertThat(outside.versionFor(hashes[i])).isEqualTo(RingVersion.V1);
            assertThat(all.versionFor(hashes[i])).isEqualTo(RingVersion.V2);
        }
        assertThat(outside.v2Percent()).isZero();
        assertThat(v2.v2Percent()).isEqualTo(100);
        assertThat(v2.shadow()).isTrue();
    }

    @Test
    void theMixIsABijection() {
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 1_000_000; i++) {
            int h = random.nextInt();
            assertThat(unmix(MigrationSplit.mix(h))).isEqualTo(h);
        }
        assertThat(unmix(MigrationSplit.mix(0))).isZero();
        assertThat(unmix(MigrationSplit.mix(-1))).isEqualTo(-1);
    }

    /** The inverse of murmur3's fmix32: each step of it is invertible, so mix is a bijection. */
    private static int unmix(int h) {
        h ^= h >>> 16;
        h *= inverseOfOdd(0xc2b2ae35);
        h ^= (h >>> 13) ^ (h >>> 26);
        h *= inverseOfOdd(0x85ebca6b);
        h ^= h >>> 16;
        return h;
    }

    /** Multiplicative inverse modulo 2^32 of an odd number (Newton's iteration doubles the correct bits). */
    private static int inverseOfOdd(int a) {
        int x = a; // correct to 3 bits for odd a
        for (int i = 0; i < 5; i++) {
            x *= 2 - a * x;
        }
        return x;
    }

    @Test
    void invalidSettingsAreRejectedNamingTheKey() {
        assertThatThrownBy(() -> new MigrationSettings(MigrationSettings.Mode.SPLIT, 150, false))
                .hasMessage("quarkus.ketama.migration.v2-share must be a percentage from 0 to 100 (decimals allowed), was 150.0");
        assertThatThrownBy(() -> new MigrationSettings(MigrationSettings.Mode.SPLIT, -0.5, false))
                .hasMessageContaining("was -0.5");
        assertThatThrownBy(() -> new MigrationSettings(MigrationSettings.Mode.SPLIT, Double.NaN, false))
                .hasMessageContaining("was NaN");
        assertThatThrownBy(() -> MigrationSettings.Mode.parse("v3"))
                .hasMessage("quarkus.ketama.migration.mode must be one of v1, v2, split, was 'v3'");
        assertThat(MigrationSettings.Mode.parse(" Split ")).isEqualTo(MigrationSettings.Mode.SPLIT);
        assertThatThrownBy(() -> new RingSettings(HashStyle.NGINX, 0))
                .hasMessage("quarkus.ketama.v2.points-per-weight must be an integer from 1 to 1000000, was 0");
        assertThatThrownBy(() -> new RingSettings(HashStyle.NGINX, 1_000_001))
                .hasMessage("quarkus.ketama.v2.points-per-weight must be an integer from 1 to 1000000, was 1000001");
    }
}
