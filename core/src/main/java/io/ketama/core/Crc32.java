package io.ketama.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.zip.CRC32;

/**
 * CRC-32 (IEEE 802.3, reflected polynomial {@code 0xEDB88320}), the hash nginx and pingora-ketama
 * use for keys and for ring points. Equal to {@link java.util.zip.CRC32} on every input.
 *
 * <p>Static and allocation-free: keys are hashed on the lookup path, where an object per call is
 * not wanted. Byte arrays go through the JDK's intrinsic ({@link #hash(byte[], int, int)});
 * {@link #update} uses slicing-by-8 (eight table reads per eight bytes, one flat {@code int[2048]}
 * table of 8 KiB that stays in L1) for running registers; {@link #extendLittleEndian(int, int)}
 * hashes the 4 bytes that each ketama point appends to its node's prefix with four table reads.
 */
public final class Crc32 {

    private static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** Eight 256-entry tables, flattened: table k at offset {@code k * 256}. */
    private static final int[] T = new int[8 * 256];

    static {
        for (int i = 0; i < 256; i++) {
            int c = i;
            for (int k = 0; k < 8; k++) {
                c = (c & 1) != 0 ? (c >>> 1) ^ 0xEDB88320 : c >>> 1;
            }
            T[i] = c;
        }
        for (int t = 1; t < 8; t++) {
            for (int i = 0; i < 256; i++) {
                int prev = T[(t - 1) * 256 + i];
                T[t * 256 + i] = (prev >>> 8) ^ T[prev & 0xFF];
            }
        }
    }

    /** The CRC register before any byte: start from here, then {@link #finish(int)}. */
    public static final int INITIAL = 0xFFFFFFFF;

    private Crc32() {
    }

    /** CRC-32 of all of {@code bytes}. */
    public static int hash(byte[] bytes) {
        return hash(bytes, 0, bytes.length);
    }

    /**
     * CRC-32 of {@code bytes[offset, offset + length)}. Delegates to {@link java.util.zip.CRC32},
     * which HotSpot compiles to a carry-less-multiply stub: about twice as fast as the tables here
     * on 30-byte keys (measured in the benchmarks' {@code HashBench}). The instance is local and
     * never escapes, so escape analysis removes the allocation.
     */
    public static int hash(byte[] bytes, int offset, int length) {
        CRC32 crc = new CRC32();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }

    /**
     * CRC-32 of the UTF-8 encoding of {@code text}, without encoding it into an array. Unpaired
     * surrogates count as {@code '?'}, as {@link String#getBytes(java.nio.charset.Charset)} does.
     */
    public static int hashUtf8(CharSequence text) {
        int c = INITIAL;
        int n = text.length();
        int i = 0;
        // ASCII runs, the common case for cache keys, go 8 characters (= 8 bytes) per slicing-by-8 step
        for (; i + 8 <= n; i += 8) {
            char c0 = text.charAt(i);
            char c1 = text.charAt(i + 1);
            char c2 = text.charAt(i + 2);
            char c3 = text.charAt(i + 3);
            char c4 = text.charAt(i + 4);
            char c5 = text.charAt(i + 5);
            char c6 = text.charAt(i + 6);
            char c7 = text.charAt(i + 7);
            if ((c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7) >= 0x80) {
                break; // the byte-wise loop below takes over from here
            }
            c ^= c0 | c1 << 8 | c2 << 16 | c3 << 24;
            int hi = c4 | c5 << 8 | c6 << 16 | c7 << 24;
            c = step8(c, hi);
        }
        for (; i < n; i++) {
            char ch = text.charAt(i);
            if (ch < 0x80) {
                c = step(c, ch);
            } else if (ch < 0x800) {
                c = step(c, 0xC0 | (ch >>> 6));
                c = step(c, 0x80 | (ch & 0x3F));
            } else if (Character.isSurrogate(ch)) {
                if (Character.isHighSurrogate(ch) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                    int cp = Character.toCodePoint(ch, text.charAt(++i));
                    c = step(c, 0xF0 | (cp >>> 18));
                    c = step(c, 0x80 | ((cp >>> 12) & 0x3F));
                    c = step(c, 0x80 | ((cp >>> 6) & 0x3F));
                    c = step(c, 0x80 | (cp & 0x3F));
                } else {
                    c = step(c, '?');
                }
            } else {
                c = step(c, 0xE0 | (ch >>> 12));
                c = step(c, 0x80 | ((ch >>> 6) & 0x3F));
                c = step(c, 0x80 | (ch & 0x3F));
            }
        }
        return finish(c);
    }

    /** Feeds {@code bytes[offset, offset + length)} into a running CRC register. */
    public static int update(int register, byte[] bytes, int offset, int length) {
        int c = register;
        int i = offset;
        int end = offset + length;
        for (; i + 8 <= end; i += 8) {
            c ^= (int) INT_LE.get(bytes, i);
            int hi = (int) INT_LE.get(bytes, i + 4);
            c = step8(c, hi);
        }
        for (; i < end; i++) {
            c = step(c, bytes[i]);
        }
        return c;
    }

    /**
     * Feeds the 4 little-endian bytes of {@code value} into a running CRC register: exactly
     * {@code update(register, {v, v>>8, v>>16, v>>24})}, in four table reads.
     */
    public static int extendLittleEndian(int register, int value) {
        int c = register ^ value;
        return T[3 * 256 + (c & 0xFF)]
                ^ T[2 * 256 + ((c >>> 8) & 0xFF)]
                ^ T[256 + ((c >>> 16) & 0xFF)]
                ^ T[c >>> 24];
    }

    /** The CRC value of a register: its complement. */
    public static int finish(int register) {
        return ~register;
    }

    /** Slicing-by-8: eight bytes at once, the first four already xored into {@code c}, the next four in {@code hi}. */
    private static int step8(int c, int hi) {
        return T[7 * 256 + (c & 0xFF)]
                ^ T[6 * 256 + ((c >>> 8) & 0xFF)]
                ^ T[5 * 256 + ((c >>> 16) & 0xFF)]
                ^ T[4 * 256 + (c >>> 24)]
                ^ T[3 * 256 + (hi & 0xFF)]
                ^ T[2 * 256 + ((hi >>> 8) & 0xFF)]
                ^ T[256 + ((hi >>> 16) & 0xFF)]
                ^ T[hi >>> 24];
    }

    private static int step(int c, int b) {
        return (c >>> 8) ^ T[(c ^ b) & 0xFF];
    }
}
