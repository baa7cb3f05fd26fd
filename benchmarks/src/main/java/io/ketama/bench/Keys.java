package io.ketama.bench;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Precomputed lookup keys: 30 random alphanumeric characters each, as pingora-ketama's benchmark
 * uses. 2^18 of them (about 12 MB with headers), so the lookups of one measurement touch positions
 * all over even the largest ring instead of a cached few; generation is outside every measurement.
 */
public final class Keys {

    public static final int COUNT = 1 << 18;
    public static final int MASK = COUNT - 1;
    public static final int LENGTH = 30;
    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private Keys() {
    }

    public static byte[][] bytes(long seed) {
        Random rnd = new Random(seed);
        byte[][] out = new byte[COUNT][];
        for (int i = 0; i < COUNT; i++) {
            byte[] k = new byte[LENGTH];
            for (int j = 0; j < LENGTH; j++) {
                k[j] = (byte) ALPHABET.charAt(rnd.nextInt(ALPHABET.length()));
            }
            out[i] = k;
        }
        return out;
    }

    public static String[] strings(long seed) {
        byte[][] b = bytes(seed);
        String[] out = new String[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = new String(b[i], StandardCharsets.US_ASCII);
        }
        return out;
    }
}
