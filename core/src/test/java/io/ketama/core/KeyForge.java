package io.ketama.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Makes keys with a chosen CRC-32, for tests of the edges of the hash space (0, 0xFFFFFFFF, a
 * point's exact hash). CRC-32 of {@code prefix ‖ x} is an affine, invertible function of the
 * 32 bits of a 4-byte suffix {@code x}, so the suffix is found by solving a 32×32 linear system
 * over GF(2) instead of by search.
 */
public final class KeyForge {

    private KeyForge() {
    }

    /** {@code prefix} (UTF-8) followed by 4 bytes chosen so that the CRC-32 of the whole is {@code target}. */
    public static byte[] keyWithHash(String prefix, int target) {
        byte[] p = prefix.getBytes(StandardCharsets.UTF_8);
        int reg = Crc32.update(Crc32.INITIAL, p, 0, p.length);
        int base = Crc32.finish(Crc32.extendLittleEndian(reg, 0));
        int[] vec = new int[32];
        int[] comb = new int[32];
        for (int i = 0; i < 32; i++) {
            vec[i] = Crc32.finish(Crc32.extendLittleEndian(reg, 1 << i)) ^ base;
            comb[i] = 1 << i;
        }
        // Gauss-Jordan: afterwards vec[b] is the single bit b, comb[b] the inputs that produce it
        for (int b = 0; b < 32; b++) {
            int pivot = b;
            while (pivot < 32 && (vec[pivot] & (1 << b)) == 0) {
                pivot++;
            }
            if (pivot == 32) {
                throw new IllegalStateException("CRC-32 of a 4-byte suffix is not invertible: cannot happen");
            }
            swap(vec, b, pivot);
            swap(comb, b, pivot);
            for (int r = 0; r < 32; r++) {
                if (r != b && (vec[r] & (1 << b)) != 0) {
                    vec[r] ^= vec[b];
                    comb[r] ^= comb[b];
                }
            }
        }
        int want = target ^ base;
        int x = 0;
        for (int b = 0; b < 32; b++) {
            if ((want & (1 << b)) != 0) {
                x ^= comb[b];
            }
        }
        byte[] key = Arrays.copyOf(p, p.length + 4);
        for (int i = 0; i < 4; i++) {
            key[p.length + i] = (byte) (x >>> (8 * i));
        }
        return key;
    }

    /** Like {@link #keyWithHash} but without a '\n' byte, so the key fits on one line of the CLI's input. */
    public static byte[] lineKeyWithHash(int target) {
        for (int i = 0; ; i++) {
            byte[] key = keyWithHash("key-" + i + "-", target);
            boolean clean = true;
            for (byte b : key) {
                clean &= b != '\n';
            }
            if (clean) {
                return key;
            }
        }
    }

    private static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
