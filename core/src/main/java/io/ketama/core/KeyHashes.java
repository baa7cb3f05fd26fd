package io.ketama.core;

/**
 * The byte-at-a-time key hashes of the C ketama implementations, written from their definitions,
 * each over a byte range or the UTF-8 bytes of a text (unpaired surrogates as {@code '?'}, as
 * {@link String#getBytes} does), allocation-free either way.
 *
 * <p>Both read each key byte through a C {@code char}, which is signed on the x86-64 and AArch64
 * builds of Debian: a byte of 0x80 or more enters the hash as {@code 0xFFFFFF80 | b}, not {@code b}.
 * That is what twemproxy and libmemcached do with a non-ASCII key, so it is what is done here.
 */
final class KeyHashes {

    /** twemproxy's {@code FNV_64_INIT} truncated to 32 bits ({@code (uint32_t) 0xcbf29ce484222325}). */
    static final int FNV1A_64_TRUNCATED_INIT = 0x84222325;
    /** twemproxy's {@code FNV_64_PRIME} truncated to 32 bits ({@code (uint32_t) 0x100000001b3}). */
    static final int FNV1A_64_TRUNCATED_PRIME = 0x1b3;

    private KeyHashes() {
    }

    /**
     * twemproxy 0.5.0's {@code hash_fnv1a_64}: despite the name a 32-bit FNV-1a whose offset basis
     * and prime are the 64-bit ones truncated to 32 bits, each key byte sign-extended.
     */
    static int fnv1a64Truncated(byte[] key, int offset, int length) {
        int h = FNV1A_64_TRUNCATED_INIT;
        for (int i = offset, end = offset + length; i < end; i++) {
            h ^= key[i]; // a byte widens with its sign, as (uint32_t) of a signed char does
            h *= FNV1A_64_TRUNCATED_PRIME;
        }
        return h;
    }

    /** libmemcached 1.1.4's {@code hashkit_one_at_a_time} (Jenkins' one-at-a-time), each key byte sign-extended. */
    static int oneAtATime(byte[] key, int offset, int length) {
        int h = 0;
        for (int i = offset, end = offset + length; i < end; i++) {
            h = oneAtATimeStep(h, key[i]);
        }
        return oneAtATimeFinish(h);
    }

    static int fnv1a64Truncated(CharSequence key, int from, int to) {
        int h = FNV1A_64_TRUNCATED_INIT;
        for (int i = from; i < to; ) {
            char c = key.charAt(i++);
            if (c < 0x80) {
                h = (h ^ c) * FNV1A_64_TRUNCATED_PRIME;
                continue;
            }
            int cp = codePoint(key, c, i, to);
            if (cp > 0xFFFF) {
                i++;
            }
            for (int k = 0, n = utf8Length(cp); k < n; k++) {
                h = (h ^ utf8Byte(cp, n, k)) * FNV1A_64_TRUNCATED_PRIME;
            }
        }
        return h;
    }

    static int oneAtATime(CharSequence key, int from, int to) {
        int h = 0;
        for (int i = from; i < to; ) {
            char c = key.charAt(i++);
            if (c < 0x80) {
                h = oneAtATimeStep(h, (byte) c);
                continue;
            }
            int cp = codePoint(key, c, i, to);
            if (cp > 0xFFFF) {
                i++;
            }
            for (int k = 0, n = utf8Length(cp); k < n; k++) {
                h = oneAtATimeStep(h, utf8Byte(cp, n, k));
            }
        }
        return oneAtATimeFinish(h);
    }

    private static int oneAtATimeStep(int h, byte b) {
        h += b; // sign-extended, as (uint32_t) of a signed char
        h += h << 10;
        return h ^ (h >>> 6);
    }

    private static int oneAtATimeFinish(int h) {
        h += h << 3;
        h ^= h >>> 11;
        return h + (h << 15);
    }

    /** The code point at {@code c} (read), its low surrogate at {@code next} if paired; {@code '?'} for an unpaired surrogate. */
    private static int codePoint(CharSequence key, char c, int next, int to) {
        if (!Character.isSurrogate(c)) {
            return c;
        }
        if (Character.isHighSurrogate(c) && next < to && Character.isLowSurrogate(key.charAt(next))) {
            return Character.toCodePoint(c, key.charAt(next));
        }
        return '?';
    }

    private static int utf8Length(int cp) {
        return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }

    /** Byte {@code k} of the {@code n}-byte UTF-8 encoding of {@code cp}. */
    private static byte utf8Byte(int cp, int n, int k) {
        if (n == 1) {
            return (byte) cp;
        }
        int shift = 6 * (n - 1 - k);
        if (k == 0) {
            int lead = n == 2 ? 0xC0 : n == 3 ? 0xE0 : 0xF0;
            return (byte) (lead | cp >> shift);
        }
        return (byte) (0x80 | (cp >> shift) & 0x3F);
    }

    /**
     * twemproxy's {@code hash_tag}: where the part of {@code key[offset, offset + length)} between
     * the first {@code open} and the next {@code close} after it lies, packed as
     * {@code from << 32 | to}; the whole range when either is missing or nothing lies between them.
     */
    static long tagged(byte[] key, int offset, int length, byte open, byte close) {
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            if (key[i] == open) {
                for (int j = i + 1; j < end; j++) {
                    if (key[j] == close) {
                        return j - i > 1 ? ((long) (i + 1) << 32) | j : ((long) offset << 32) | end;
                    }
                }
                break;
            }
        }
        return ((long) offset << 32) | end;
    }

    /** {@link #tagged(byte[], int, int, byte, byte)} over chars: for ASCII tag characters char and UTF-8 byte boundaries agree. */
    static long tagged(CharSequence key, char open, char close) {
        int end = key.length();
        for (int i = 0; i < end; i++) {
            if (key.charAt(i) == open) {
                for (int j = i + 1; j < end; j++) {
                    if (key.charAt(j) == close) {
                        return j - i > 1 ? ((long) (i + 1) << 32) | j : end;
                    }
                }
                break;
            }
        }
        return end;
    }
}
