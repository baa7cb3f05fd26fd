package io.ketama.core;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The text a ketama-family program hashes for a server's point {@code i}: the server's text, a
 * separator, then {@code i} in decimal ({@code 10.0.0.1:11211-17}), written into one buffer that
 * is reused for every point of the server, so a ring's build encodes each server's text once
 * instead of concatenating and encoding a string per point (on 100 servers at 160 points, 16,000
 * strings and byte arrays fewer).
 */
final class PointText {

    /** Digits of the largest point number: {@code Integer.MAX_VALUE} has 10. */
    private static final int MAX_DIGITS = 10;

    private final byte[] buffer;
    private final int base;

    /** The point texts of {@code server} followed by {@code separator}. */
    PointText(String server, String separator) {
        byte[] prefix = (server + separator).getBytes(StandardCharsets.UTF_8);
        this.buffer = Arrays.copyOf(prefix, prefix.length + MAX_DIGITS);
        this.base = prefix.length;
    }

    /** The buffer holding the last text {@link #point} wrote. */
    byte[] bytes() {
        return buffer;
    }

    /** Writes point {@code i}'s text (i ≥ 0) and returns its length in {@link #bytes()}. */
    int point(int i) {
        int digits = 1;
        for (int rest = i / 10; rest > 0; rest /= 10) {
            digits++;
        }
        int end = base + digits;
        int p = end;
        int rest = i;
        do {
            buffer[--p] = (byte) ('0' + rest % 10);
            rest /= 10;
        } while (rest > 0);
        return end;
    }
}
