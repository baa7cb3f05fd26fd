package io.ketama.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * MD5 (RFC 1321) of a key, as the memcached ketama family hashes keys and servers, without
 * allocating: the state lives in locals and the message words are read straight from the key.
 *
 * <p>The memcached clients take the first four digest bytes as a little-endian number, which is
 * MD5's first state word {@code A} itself; {@link #hash} returns it. {@link #digest} returns all four
 * words (digest bytes {@code 4w..4w+3} are word {@code w}, little-endian), for the points of a ring.
 *
 * <p>Keys on the lookup path go through {@link JdkMd5} (the JDK's digest, which HotSpot compiles to
 * an intrinsic, one per thread); this class is its fallback where that does not pay (virtual
 * threads, no {@code SUN} MD5), and hashes the servers' texts when a ring is built. Equal to
 * {@link java.security.MessageDigest} on every input (tested).
 */
final class Md5 {

    private static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** No prefix byte before the key. */
    static final int NO_PREFIX = -1;

    private Md5() {
    }

    /** The first 4 digest bytes, little-endian, of {@code bytes[offset, offset + length)}. */
    static int hash(byte[] bytes, int offset, int length) {
        return run(NO_PREFIX, bytes, null, offset, length, null);
    }

    /** {@link #hash} of one byte {@code prefix} (0..255) followed by {@code bytes[offset, offset + length)}. */
    static int hashPrefixed(int prefix, byte[] bytes, int offset, int length) {
        return run(prefix, bytes, null, offset, length, null);
    }

    /**
     * {@link #hash} of the UTF-8 bytes of {@code prefix} (a byte, or {@link #NO_PREFIX}) and
     * {@code text}. Allocation-free when {@code text} is ASCII; otherwise it encodes the text
     * (unpaired surrogates become {@code '?'}, as {@link String#getBytes} does).
     */
    static int hashUtf8(int prefix, CharSequence text) {
        int n = text.length();
        for (int i = 0; i < n; i++) {
            if (text.charAt(i) >= 0x80) {
                byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
                return run(prefix, bytes, null, 0, bytes.length, null);
            }
        }
        return run(prefix, null, text, 0, n, null);
    }

    /** All four state words of the digest of {@code bytes} (digest byte {@code i} is byte {@code i % 4} of word {@code i / 4}). */
    static int[] digest(byte[] bytes) {
        int[] out = new int[4];
        run(NO_PREFIX, bytes, null, 0, bytes.length, out);
        return out;
    }

    /** {@link #digest(byte[])} of {@code bytes[0, length)}, into {@code out[0, 4)}. */
    static void digest(byte[] bytes, int length, int[] out) {
        run(NO_PREFIX, bytes, null, 0, length, out);
    }

    /**
     * MD5 of the message {@code [prefix] ‖ data}, where data is {@code bytes[offset, offset+length)}
     * or, when {@code bytes} is null, the ASCII characters {@code chars[0, length)}. Returns word A
     * and, when {@code out} is not null, stores all four words there.
     */
    private static int run(int prefix, byte[] bytes, CharSequence chars, int offset, int length, int[] out) {
        int head = prefix < 0 ? 0 : 1;
        int total = head + length;
        // message + 0x80 + zeros + 8 length bytes, rounded up to whole 64-byte blocks
        int padded = ((total + 8) & ~63) + 64;
        long bits = (long) total << 3;
        int a = 0x67452301;
        int b = 0xefcdab89;
        int c = 0x98badcfe;
        int d = 0x10325476;
        for (int s = 0; s < padded; s += 64) {
            int x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15;
            if (bytes != null && s >= head && s + 64 <= total) {
                int p = offset + s - head;
                x0 = (int) INT_LE.get(bytes, p);
                x1 = (int) INT_LE.get(bytes, p + 4);
                x2 = (int) INT_LE.get(bytes, p + 8);
                x3 = (int) INT_LE.get(bytes, p + 12);
                x4 = (int) INT_LE.get(bytes, p + 16);
                x5 = (int) INT_LE.get(bytes, p + 20);
                x6 = (int) INT_LE.get(bytes, p + 24);
                x7 = (int) INT_LE.get(bytes, p + 28);
                x8 = (int) INT_LE.get(bytes, p + 32);
                x9 = (int) INT_LE.get(bytes, p + 36);
                x10 = (int) INT_LE.get(bytes, p + 40);
                x11 = (int) INT_LE.get(bytes, p + 44);
                x12 = (int) INT_LE.get(bytes, p + 48);
                x13 = (int) INT_LE.get(bytes, p + 52);
                x14 = (int) INT_LE.get(bytes, p + 56);
                x15 = (int) INT_LE.get(bytes, p + 60);
            } else {
                x0 = word(prefix, head, bytes, chars, offset, total, padded, bits, s);
                x1 = word(prefix, head, bytes, chars, offset, total, padded, bits, s + 4);
                x2 = word(prefix, head, bytes, chars, offset, total, padded, bits, s + 8);
                x3 = word(prefix, head, bytes, chars, offset, total, padded, bits, s + 12);
                x4 = word(prefix, head, bytes, chars, offset, total, padded, bits, s + 16);
                x5 = word(prefix, head, bytes, chars, offset, total, padded, bits, s + 20);
                x6 = word(prefix, head, bytes, chars, offset, total, padded, bits, s + 24);
                x7 = word(prefix, head, bytes, chars, offset, total, padded, bits, s + 28);
                x8 = word(prefix, head, bytes, chars, offset, total, padded, bits, s + 32);
                x9 = word(prefix, head, bytes, chars, offset, total, padded, bits, s + 36);
                x10 = word(prefix, head, bytes, chars, offset, total, padded, bits, s + 40);
                x11 = word(prefix, head, bytes, chars, offset, total, padded, bits, s + 44);
                x12 = word(prefix, head, bytes, chars, offset, total, padded, bits, s + 48);
                x13 = word(prefix, head, bytes, chars, offset, total, padded, bits, s + 52);
                x14 = word(prefix, head, bytes, chars, offset, total, padded, bits, s + 56);
                x15 = word(prefix, head, bytes, chars, offset, total, padded, bits, s + 60);
            }
            int aa = a;
            int bb = b;
            int cc = c;
            int dd = d;

            a = ff(a, b, c, d, x0, 0xd76aa478, 7);
            d = ff(d, a, b, c, x1, 0xe8c7b756, 12);
            c = ff(c, d, a, b, x2, 0x242070db, 17);
            b = ff(b, c, d, a, x3, 0xc1bdceee, 22);
            a = ff(a, b, c, d, x4, 0xf57c0faf, 7);
            d = ff(d, a, b, c, x5, 0x4787c62a, 12);
            c = ff(c, d, a, b, x6, 0xa8304613, 17);
            b = ff(b, c, d, a, x7, 0xfd469501, 22);
            a = ff(a, b, c, d, x8, 0x698098d8, 7);
            d = ff(d, a, b, c, x9, 0x8b44f7af, 12);
            c = ff(c, d, a, b, x10, 0xffff5bb1, 17);
            b = ff(b, c, d, a, x11, 0x895cd7be, 22);
            a = ff(a, b, c, d, x12, 0x6b901122, 7);
            d = ff(d, a, b, c, x13, 0xfd987193, 12);
            c = ff(c, d, a, b, x14, 0xa679438e, 17);
            b = ff(b, c, d, a, x15, 0x49b40821, 22);

            a = gg(a, b, c, d, x1, 0xf61e2562, 5);
            d = gg(d, a, b, c, x6, 0xc040b340, 9);
            c = gg(c, d, a, b, x11, 0x265e5a51, 14);
            b = gg(b, c, d, a, x0, 0xe9b6c7aa, 20);
            a = gg(a, b, c, d, x5, 0xd62f105d, 5);
            d = gg(d, a, b, c, x10, 0x02441453, 9);
            c = gg(c, d, a, b, x15, 0xd8a1e681, 14);
            b = gg(b, c, d, a, x4, 0xe7d3fbc8, 20);
            a = gg(a, b, c, d, x9, 0x21e1cde6, 5);
            d = gg(d, a, b, c, x14, 0xc33707d6, 9);
            c = gg(c, d, a, b, x3, 0xf4d50d87, 14);
            b = gg(b, c, d, a, x8, 0x455a14ed, 20);
            a = gg(a, b, c, d, x13, 0xa9e3e905, 5);
            d = gg(d, a, b, c, x2, 0xfcefa3f8, 9);
            c = gg(c, d, a, b, x7, 0x676f02d9, 14);
            b = gg(b, c, d, a, x12, 0x8d2a4c8a, 20);

            a = hh(a, b, c, d, x5, 0xfffa3942, 4);
            d = hh(d, a, b, c, x8, 0x8771f681, 11);
            c = hh(c, d, a, b, x11, 0x6d9d6122, 16);
            b = hh(b, c, d, a, x14, 0xfde5380c, 23);
            a = hh(a, b, c, d, x1, 0xa4beea44, 4);
            d = hh(d, a, b, c, x4, 0x4bdecfa9, 11);
            c = hh(c, d, a, b, x7, 0xf6bb4b60, 16);
            b = hh(b, c, d, a, x10, 0xbebfbc70, 23);
            a = hh(a, b, c, d, x13, 0x289b7ec6, 4);
            d = hh(d, a, b, c, x0, 0xeaa127fa, 11);
            c = hh(c, d, a, b, x3, 0xd4ef3085, 16);
            b = hh(b, c, d, a, x6, 0x04881d05, 23);
            a = hh(a, b, c, d, x9, 0xd9d4d039, 4);
            d = hh(d, a, b, c, x12, 0xe6db99e5, 11);
            c = hh(c, d, a, b, x15, 0x1fa27cf8, 16);
            b = hh(b, c, d, a, x2, 0xc4ac5665, 23);

            a = ii(a, b, c, d, x0, 0xf4292244, 6);
            d = ii(d, a, b, c, x7, 0x432aff97, 10);
            c = ii(c, d, a, b, x14, 0xab9423a7, 15);
            b = ii(b, c, d, a, x5, 0xfc93a039, 21);
            a = ii(a, b, c, d, x12, 0x655b59c3, 6);
            d = ii(d, a, b, c, x3, 0x8f0ccc92, 10);
            c = ii(c, d, a, b, x10, 0xffeff47d, 15);
            b = ii(b, c, d, a, x1, 0x85845dd1, 21);
            a = ii(a, b, c, d, x8, 0x6fa87e4f, 6);
            d = ii(d, a, b, c, x15, 0xfe2ce6e0, 10);
            c = ii(c, d, a, b, x6, 0xa3014314, 15);
            b = ii(b, c, d, a, x13, 0x4e0811a1, 21);
            a = ii(a, b, c, d, x4, 0xf7537e82, 6);
            d = ii(d, a, b, c, x11, 0xbd3af235, 10);
            c = ii(c, d, a, b, x2, 0x2ad7d2bb, 15);
            b = ii(b, c, d, a, x9, 0xeb86d391, 21);
            a += aa;
            b += bb;
            c += cc;
            d += dd;
        }
        if (out != null) {
            out[0] = a;
            out[1] = b;
            out[2] = c;
            out[3] = d;
        }
        return a;
    }

    /**
     * The little-endian message word at byte {@code m} of the padded message, in a block that is
     * not all key bytes: key words are read whole, words past the 0x80 byte are zeros or the bit
     * length, and only the one or two words that straddle the prefix or the end go byte by byte.
     */
    private static int word(int prefix, int head, byte[] bytes, CharSequence chars, int offset, int total,
                            int padded, long bits, int m) {
        if (m >= head && m + 4 <= total) {
            int p = m - head;
            if (bytes != null) {
                return (int) INT_LE.get(bytes, offset + p);
            }
            return chars.charAt(p) | chars.charAt(p + 1) << 8 | chars.charAt(p + 2) << 16 | chars.charAt(p + 3) << 24;
        }
        if (m > total) {
            int lengthAt = padded - 8;
            return m == lengthAt ? (int) bits : m == lengthAt + 4 ? (int) (bits >>> 32) : 0;
        }
        return edgeWord(prefix, head, bytes, chars, offset, total, padded, bits, m);
    }

    /** A word that straddles the prefix or the end of the key (at most two per message), byte by byte. */
    private static int edgeWord(int prefix, int head, byte[] bytes, CharSequence chars, int offset, int total,
                                int padded, long bits, int m) {
        int w = 0;
        for (int k = 3; k >= 0; k--) {
            w = w << 8 | messageByte(prefix, head, bytes, chars, offset, total, padded, bits, m + k);
        }
        return w;
    }

    /** Byte {@code m} of the padded message: prefix, data, 0x80, zeros, then the bit length little-endian. */
    private static int messageByte(int prefix, int head, byte[] bytes, CharSequence chars, int offset, int total,
                                   int padded, long bits, int m) {
        if (m < head) {
            return prefix;
        }
        if (m < total) {
            int p = m - head;
            return bytes != null ? bytes[offset + p] & 0xFF : chars.charAt(p);
        }
        if (m == total) {
            return 0x80;
        }
        int lengthAt = padded - 8;
        return m < lengthAt ? 0 : (int) (bits >>> ((m - lengthAt) << 3)) & 0xFF;
    }

    private static int ff(int a, int b, int c, int d, int x, int t, int s) {
        return b + Integer.rotateLeft(a + ((b & c) | (~b & d)) + x + t, s);
    }

    private static int gg(int a, int b, int c, int d, int x, int t, int s) {
        return b + Integer.rotateLeft(a + ((b & d) | (c & ~d)) + x + t, s);
    }

    private static int hh(int a, int b, int c, int d, int x, int t, int s) {
        return b + Integer.rotateLeft(a + (b ^ c ^ d) + x + t, s);
    }

    private static int ii(int a, int b, int c, int d, int x, int t, int s) {
        return b + Integer.rotateLeft(a + (c ^ (b | ~d)) + x + t, s);
    }
}
