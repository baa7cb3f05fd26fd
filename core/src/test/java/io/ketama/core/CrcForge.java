package io.ketama.core;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Makes node identities whose first ring point has a chosen hash, to force collisions in tests.
 *
 * <p>CRC-32 is affine over GF(2): for messages of one length, flipping a set of bits changes the
 * CRC by the XOR of what each flip alone changes. A host of the form {@code prefix} + 48 characters
 * each {@code '0'} or {@code '1'} (which differ in one bit) therefore gives 48 independent switches;
 * Gaussian elimination picks the ones that move point 0 ({@code crc32(host ‖ 0 ‖ port ‖ 0000)}) to
 * the target. Computed with {@link java.util.zip.CRC32}, independently of the code under test.
 */
final class CrcForge {

    private static final int FREE = 48;

    private CrcForge() {
    }

    /** A host (prefix + 48 binary digits) whose identity with {@code port} has point 0 equal to {@code target}. */
    static String hostWithFirstPoint(String prefix, String port, int target) {
        char[] bits = new char[FREE];
        java.util.Arrays.fill(bits, '0');
        int base = firstPoint(prefix + new String(bits), port);
        int[] basis = new int[32];      // basis vector by pivot bit
        long[] combo = new long[32];    // which switches make it
        for (int i = 0; i < FREE; i++) {
            bits[i] = '1';
            int v = firstPoint(prefix + new String(bits), port) ^ base;
            bits[i] = '0';
            long c = 1L << i;
            for (int b = 31; b >= 0 && v != 0; b--) {
                if ((v >>> b & 1) == 0) {
                    continue;
                }
                if (basis[b] == 0) {
                    basis[b] = v;
                    combo[b] = c;
                    v = 0;
                } else {
                    v ^= basis[b];
                    c ^= combo[b];
                }
            }
        }
        int want = target ^ base;
        long use = 0;
        for (int b = 31; b >= 0; b--) {
            if ((want >>> b & 1) != 0) {
                if (basis[b] == 0) {
                    throw new IllegalStateException("switches do not span bit " + b);
                }
                want ^= basis[b];
                use ^= combo[b];
            }
        }
        for (int i = 0; i < FREE; i++) {
            bits[i] = (use >>> i & 1) != 0 ? '1' : '0';
        }
        String host = prefix + new String(bits);
        if (firstPoint(host, port) != target) {
            throw new IllegalStateException("forging failed");
        }
        return host;
    }

    /** {@code crc32(host ‖ 0x00 ‖ port ‖ 00 00 00 00)}: the first ketama point of an identity. */
    static int firstPoint(String host, String port) {
        CRC32 crc = new CRC32();
        crc.update(host.getBytes(StandardCharsets.UTF_8));
        crc.update(0);
        crc.update(port.getBytes(StandardCharsets.UTF_8));
        crc.update(new byte[4]);
        return (int) crc.getValue();
    }
}
