package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Our allocation-free MD5 against the JDK's {@link MessageDigest} on every length that crosses a padding boundary. */
class Md5Test {

    private static byte[] jdk(byte[] message) throws Exception {
        return MessageDigest.getInstance("MD5").digest(message);
    }

    private static int firstWordLe(byte[] digest) {
        return ByteBuffer.wrap(digest).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
    }

    private static byte[] bytesOf(int[] words) {
        ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        for (int w : words) {
            b.putInt(w);
        }
        return b.array();
    }

    @Test
    void rfc1321TestSuite() {
        String[][] suite = {
                {"", "d41d8cd98f00b204e9800998ecf8427e"},
                {"a", "0cc175b9c0f1b6a831c399e269772661"},
                {"abc", "900150983cd24fb0d6963f7d28e17f72"},
                {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
                {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
                {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
                {"12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"},
        };
        for (String[] t : suite) {
            byte[] digest = bytesOf(Md5.digest(t[0].getBytes(StandardCharsets.US_ASCII)));
            assertThat(java.util.HexFormat.of().formatHex(digest)).as(t[0]).isEqualTo(t[1]);
        }
    }

    @Test
    void everyLengthUpTo300AtAnyOffsetEqualsMessageDigest() throws Exception {
        Random random = new Random(13);
        for (int length = 0; length <= 300; length++) {
            for (int offset : new int[] {0, 1, 3, 7}) {
                byte[] buffer = new byte[offset + length + 5];
                random.nextBytes(buffer);
                byte[] message = Arrays.copyOfRange(buffer, offset, offset + length);
                byte[] expected = jdk(message);
                assertThat(bytesOf(Md5.digest(message))).as("digest, length %d", length).isEqualTo(expected);
                assertThat(Md5.hash(buffer, offset, length)).as("hash, length %d offset %d", length, offset)
                        .isEqualTo(firstWordLe(expected));
                int prefix = random.nextInt(256);
                byte[] prefixed = new byte[length + 1];
                prefixed[0] = (byte) prefix;
                System.arraycopy(message, 0, prefixed, 1, length);
                assertThat(Md5.hashPrefixed(prefix, buffer, offset, length)).as("prefixed, length %d", length)
                        .isEqualTo(firstWordLe(jdk(prefixed)));
            }
        }
    }

    @Test
    void textIsHashedAsItsUtf8BytesWithOrWithoutAPrefix() throws Exception {
        Random random = new Random(7);
        String[] alphabets = {"abcxyz/-_0189", "aé日本\u00ff", "a\uD83D\uDE00b", "a\uD800b\uDC00"};
        for (int length = 0; length <= 200; length++) {
            for (String alphabet : alphabets) {
                StringBuilder s = new StringBuilder();
                for (int i = 0; i < length; i++) {
                    s.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
                String text = s.toString();
                assertThat(Md5.hashUtf8(Md5.NO_PREFIX, new StringBuilder(text)))
                        .as("'%s'", text).isEqualTo(firstWordLe(jdk(text.getBytes(StandardCharsets.UTF_8))));
                assertThat(Md5.hashUtf8('4', text))
                        .as("'4%s'", text).isEqualTo(firstWordLe(jdk(("4" + text).getBytes(StandardCharsets.UTF_8))));
            }
        }
    }
}
