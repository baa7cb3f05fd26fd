package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/** Our CRC-32 against the JDK's on random inputs, and the UTF-8 overload against explicit encoding. */
class Crc32Test {

    private static int jdk(byte[] b, int off, int len) {
        CRC32 c = new CRC32();
        c.update(b, off, len);
        return (int) c.getValue();
    }

    @Test
    void knownValues() {
        assertThat(Crc32.hash(new byte[0])).isZero();
        assertThat(Crc32.hash("123456789".getBytes(StandardCharsets.US_ASCII))).isEqualTo(0xCBF43926); // the CRC-32 check value
    }

    @Test
    void equalsJavaUtilZipOnRandomSlices() {
        Random random = new Random(2024);
        for (int t = 0; t < 5_000; t++) {
            byte[] b = new byte[random.nextInt(300)];
            random.nextBytes(b);
            int off = b.length == 0 ? 0 : random.nextInt(b.length);
            int len = random.nextInt(b.length - off + 1);
            assertThat(Crc32.hash(b, off, len)).as("slice %d+%d of %d", off, len, b.length).isEqualTo(jdk(b, off, len));
            assertThat(Crc32.hash(b)).isEqualTo(jdk(b, 0, b.length));
            // a running register fed in two parts equals one pass
            int mid = off + random.nextInt(len + 1);
            int reg = Crc32.update(Crc32.update(Crc32.INITIAL, b, off, mid - off), b, mid, off + len - mid);
            assertThat(Crc32.finish(reg)).isEqualTo(jdk(b, off, len));
        }
    }

    @Test
    void extendLittleEndianEqualsFeedingFourBytes() {
        Random random = new Random(5);
        for (int t = 0; t < 10_000; t++) {
            int reg = random.nextInt();
            int v = random.nextInt();
            byte[] le = {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)};
            assertThat(Crc32.extendLittleEndian(reg, v)).isEqualTo(Crc32.update(reg, le, 0, 4));
        }
    }

    @Test
    void hashUtf8EqualsHashingTheUtf8BytesIncludingSurrogates() {
        String[] fixed = {
            "", "ascii", "é", "€", "\u07ff\u0800\uffff", "\uD83D\uDE00 emoji", "a\uD800", "\uDC00b", "\uD800\uD800\uDC00",
            "\uDC00\uD800", "end with high \uDBFF", "\u0000nul"};
        for (String s : fixed) {
            assertThat(Crc32.hashUtf8(s)).as("%s", s).isEqualTo(Crc32.hash(s.getBytes(StandardCharsets.UTF_8)));
            assertThat(Crc32.hashUtf8(new StringBuilder(s))).isEqualTo(Crc32.hash(s.getBytes(StandardCharsets.UTF_8)));
        }
        Random random = new Random(11);
        char[] pool = {'a', '/', 'ß', 'ह', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uFFFD', '\u007F', '\u0080', '\u07FF', '\u0800'};
        for (int t = 0; t < 5_000; t++) {
            char[] c = new char[random.nextInt(20)];
            for (int i = 0; i < c.length; i++) {
                c[i] = random.nextInt(4) == 0 ? (char) random.nextInt(0x10000) : pool[random.nextInt(pool.length)];
            }
            String s = new String(c);
            assertThat(Crc32.hashUtf8(s)).isEqualTo(Crc32.hash(s.getBytes(StandardCharsets.UTF_8)));
        }
    }

    /** Long ASCII runs take the 8-characters-at-a-time path; a non-ASCII character anywhere hands over to the byte-wise one. */
    @Test
    void hashUtf8OfLongAsciiRunsWithOccasionalNonAscii() {
        Random random = new Random(12);
        char[] odd = {'é', '€', '\u0080', '\uD83D', '\uDE00', '\u007F'};
        for (int t = 0; t < 5_000; t++) {
            char[] c = new char[random.nextInt(100)];
            for (int i = 0; i < c.length; i++) {
                c[i] = (char) (0x20 + random.nextInt(0x5F));
            }
            if (c.length > 0 && t % 2 == 0) {
                c[random.nextInt(c.length)] = odd[random.nextInt(odd.length)];
            }
            String s = new String(c);
            assertThat(Crc32.hashUtf8(s)).as("%s", s).isEqualTo(Crc32.hash(s.getBytes(StandardCharsets.UTF_8)));
            assertThat(Crc32.hashUtf8(new StringBuilder(s))).isEqualTo(Crc32.hash(s.getBytes(StandardCharsets.UTF_8)));
        }
    }
}
