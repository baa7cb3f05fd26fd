package io.ketama.core;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.NoSuchProviderException;
import java.util.Objects;

/**
 * The memcached styles' key hash (the first four MD5 bytes, little-endian, of an optional prefix
 * byte and the key) through the JDK's own MD5, without allocating per key: each platform thread
 * keeps one {@code MessageDigest} of the {@code SUN} provider and one scratch buffer, made on its
 * first key and reused for every key after it.
 *
 * <p>Why the JDK's MD5: HotSpot compiles its compression function to an intrinsic (on x86-64 and
 * AArch64), which measured faster than our pure-Java {@link Md5} on the lookup path (see the
 * memcached section of BENCHMARKS.md). Why not a fresh or cloned digest per key: either allocates
 * the digest, its 64-byte block buffer, its state and the result array. {@code update(byte[], int,
 * int)} and {@code digest(byte[], int, int)} on a reused {@code SUN} digest allocate nothing (read
 * from {@code sun.security.provider.DigestBase}, checked with JMH's {@code -prof gc} on JDK 17 and 25).
 *
 * <p>Falls back to {@link Md5} (pure Java, allocation-free, equal on every input) where a
 * per-thread digest would not pay: on virtual threads, where a thread-local would make a digest
 * for every short-lived thread, and where the {@code SUN} provider offers no MD5 (another
 * provider's digest may allocate or run without the intrinsic).
 */
final class JdkMd5 {

    private static final VarHandle INT_LE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** Room for the keys memcached allows (≤ 250 bytes) in one piece; longer text is fed in chunks. */
    static final int SCRATCH_BYTES = 256;

    /** A UTF-8 character takes at most this many bytes. */
    private static final int MAX_CHAR_BYTES = 4;

    /** {@code Thread::isVirtual} (JDK 21+), or a constant false before virtual threads existed. */
    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    /** The {@code SUN} provider's MD5, cloned once for each thread; null when that provider has none. */
    private static final MessageDigest PROTOTYPE = sunMd5();

    /** Per-thread digest and buffer, or null without a prototype. */
    private static final ThreadLocal<Scratch> SCRATCH = PROTOTYPE == null ? null : ThreadLocal.withInitial(Scratch::new);

    private JdkMd5() {
    }

    /** {@link Md5#hash}: the first 4 digest bytes, little-endian, of {@code bytes[offset, offset + length)}. */
    static int hash(byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        Scratch s = scratch();
        if (s == null) {
            return Md5.hash(bytes, offset, length);
        }
        MessageDigest md5 = s.begin();
        md5.update(bytes, offset, length);
        return s.finish();
    }

    /** {@link Md5#hashPrefixed}: {@link #hash} of one byte {@code prefix} (0..255) followed by the key bytes. */
    static int hashPrefixed(int prefix, byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        Scratch s = scratch();
        if (s == null) {
            return Md5.hashPrefixed(prefix, bytes, offset, length);
        }
        MessageDigest md5 = s.begin();
        md5.update((byte) prefix);
        md5.update(bytes, offset, length);
        return s.finish();
    }

    /**
     * {@link #hash} of the decimal digits of {@code number} (ASCII, no sign; 0 or more) followed by
     * the key bytes: what a Java client hashes as {@code String.valueOf(number) + key}.
     * Allocation-free on the JDK's digest; the fallback copies the message.
     */
    static int hashDecimalPrefixed(int number, byte[] bytes, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        Scratch s = scratch();
        if (s == null) {
            byte[] digits = Integer.toString(number).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            byte[] message = new byte[digits.length + length];
            System.arraycopy(digits, 0, message, 0, digits.length);
            System.arraycopy(bytes, offset, message, digits.length, length);
            return Md5.hash(message, 0, message.length);
        }
        MessageDigest md5 = s.begin();
        int div = 1;
        while (number / div >= 10) {
            div *= 10;
        }
        for (; div > 0; div /= 10) {
            md5.update((byte) ('0' + number / div % 10));
        }
        md5.update(bytes, offset, length);
        return s.finish();
    }

    /**
     * {@link Md5#digest(byte[], int, int[])}: the four words of the digest of {@code bytes[0, length)}
     * into {@code out}, for the points of a ring (four a digest).
     */
    static void digest(byte[] bytes, int length, int[] out) {
        Objects.checkFromIndexSize(0, length, bytes.length);
        Scratch s = scratch();
        if (s == null) {
            Md5.digest(bytes, length, out);
            return;
        }
        MessageDigest md5 = s.begin();
        md5.update(bytes, 0, length);
        s.finish();
        for (int w = 0; w < 4; w++) {
            out[w] = (int) INT_LE.get(s.buffer, 4 * w);
        }
    }

    /**
     * {@link Md5#hashUtf8}: {@link #hash} of the UTF-8 bytes of {@code prefix} (a byte, or
     * {@link Md5#NO_PREFIX}) and {@code text}, unpaired surrogates encoded as {@code '?'} as
     * {@link String#getBytes} does. Encoded into the thread's buffer, so allocation-free for any text.
     */
    static int hashUtf8(int prefix, CharSequence text) {
        Scratch s = scratch();
        if (s == null) {
            return Md5.hashUtf8(prefix, text);
        }
        MessageDigest md5 = s.begin();
        byte[] buf = s.buffer;
        int head = 0;
        if (prefix >= 0) {
            buf[head++] = (byte) prefix;
        }
        int n = text.length();
        if (n <= buf.length - head) {
            // ASCII keys (nearly all): one pass without an early exit, checked once at the end
            int seen = 0;
            for (int i = 0; i < n; i++) {
                char c = text.charAt(i);
                seen |= c;
                buf[head + i] = (byte) c;
            }
            if (seen < 0x80) {
                md5.update(buf, 0, head + n);
                return s.finish();
            }
        }
        md5.update(buf, 0, encodeUtf8(md5, buf, head, text));
        return s.finish();
    }

    /**
     * Encodes {@code text} as UTF-8 into {@code buf} from {@code p} on, feeding the digest each
     * time the buffer fills; returns how many bytes remain in it to feed.
     */
    private static int encodeUtf8(MessageDigest md5, byte[] buf, int p, CharSequence text) {
        int n = text.length();
        int i = 0;
        while (i < n) {
            if (p > buf.length - MAX_CHAR_BYTES) {
                md5.update(buf, 0, p);
                p = 0;
            }
            char c = text.charAt(i++);
            if (c < 0x80) {
                buf[p++] = (byte) c;
            } else if (c < 0x800) {
                buf[p++] = (byte) (0xC0 | c >> 6);
                buf[p++] = (byte) (0x80 | c & 0x3F);
            } else if (!Character.isSurrogate(c)) {
                buf[p++] = (byte) (0xE0 | c >> 12);
                buf[p++] = (byte) (0x80 | c >> 6 & 0x3F);
                buf[p++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i < n && Character.isLowSurrogate(text.charAt(i))) {
                int cp = Character.toCodePoint(c, text.charAt(i++));
                buf[p++] = (byte) (0xF0 | cp >> 18);
                buf[p++] = (byte) (0x80 | cp >> 12 & 0x3F);
                buf[p++] = (byte) (0x80 | cp >> 6 & 0x3F);
                buf[p++] = (byte) (0x80 | cp & 0x3F);
            } else {
                buf[p++] = '?';
            }
        }
        return p;
    }

    /** Whether keys on the calling thread go through the JDK's digest (false: through {@link Md5}). */
    static boolean usesJdkDigest() {
        return scratch() != null;
    }

    private static Scratch scratch() {
        if (SCRATCH == null) {
            return null;
        }
        boolean virtual;
        try {
            virtual = (boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
        } catch (Throwable e) {
            throw new IllegalStateException("Thread::isVirtual failed", e);
        }
        return virtual ? null : SCRATCH.get();
    }

    private static MessageDigest sunMd5() {
        try {
            return MessageDigest.getInstance("MD5", "SUN");
        } catch (NoSuchAlgorithmException | NoSuchProviderException e) {
            return null;
        }
    }

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return MethodHandles.dropArguments(MethodHandles.constant(boolean.class, false), 0, Thread.class);
        }
    }

    /** One thread's digest and the buffer that holds encoded text and the finished digest. */
    private static final class Scratch {
        final MessageDigest md5;
        final byte[] buffer = new byte[SCRATCH_BYTES];

        Scratch() {
            try {
                md5 = (MessageDigest) PROTOTYPE.clone();
            } catch (CloneNotSupportedException e) {
                throw new IllegalStateException("the SUN provider's MD5 digest is not cloneable", e);
            }
        }

        /**
         * The digest, reset. After a finished key this is the reset the digest would do lazily on
         * the next update anyway; after a key abandoned halfway (an exception thrown by a
         * {@code CharSequence}) it keeps the bytes already fed from leaking into the next key.
         */
        MessageDigest begin() {
            md5.reset();
            return md5;
        }

        int finish() {
            try {
                md5.digest(buffer, 0, 16);
            } catch (DigestException e) {
                throw new IllegalStateException("MD5 digest into a 16-byte buffer failed", e);
            }
            return (int) INT_LE.get(buffer, 0);
        }
    }
}
