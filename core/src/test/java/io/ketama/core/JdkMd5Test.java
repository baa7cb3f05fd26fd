package io.ketama.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The key hash through the JDK's per-thread digest against a fresh {@link MessageDigest} per input. */
class JdkMd5Test {

    private static int expected(byte[] message) throws Exception {
        byte[] digest = MessageDigest.getInstance("MD5").digest(message);
        return ByteBuffer.wrap(digest).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
    }

    private static byte[] prefixed(int prefix, byte[] message) {
        byte[] out = new byte[message.length + 1];
        out[0] = (byte) prefix;
        System.arraycopy(message, 0, out, 1, message.length);
        return out;
    }

    /** Random text of {@code length} chars drawn from {@code alphabet}. */
    private static String text(Random random, String alphabet, int length) {
        StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            s.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return s.toString();
    }

    /**
     * ASCII; Latin-1 past ASCII (one byte in a Latin-1 string, two in UTF-8); 2- and 3-byte
     * characters; a surrogate pair; unpaired high and low surrogates.
     */
    private static final String[] ALPHABETS = {
            "abcxyz/-_0189", "a\u0080é\u00ff", "aé日本\u00ff\u07ff\u0800\uffff", "a\uD83D\uDE00b", "a\uD800b\uDC00"};

    @Test
    void runsOnTheJdkDigestOnPlatformThreads() {
        assertThat(JdkMd5.usesJdkDigest()).isTrue();
    }

    @Test
    void bytesOfEveryLengthUpTo200AtAnyOffsetEqualMessageDigest() throws Exception {
        Random random = new Random(17);
        for (int length = 0; length <= 200; length++) {
            for (int offset : new int[] {0, 1, 3, 7}) {
                byte[] buffer = new byte[offset + length + 5];
                random.nextBytes(buffer);
                byte[] message = Arrays.copyOfRange(buffer, offset, offset + length);
                assertThat(JdkMd5.hash(buffer, offset, length)).as("length %d offset %d", length, offset)
                        .isEqualTo(expected(message));
                int prefix = random.nextInt(256);
                assertThat(JdkMd5.hashPrefixed(prefix, buffer, offset, length)).as("prefix %d, length %d", prefix, length)
                        .isEqualTo(expected(prefixed(prefix, message)));
            }
        }
    }

    @Test
    void textOfEveryLengthUpTo200IsHashedAsItsUtf8Bytes() throws Exception {
        Random random = new Random(19);
        for (int length = 0; length <= 200; length++) {
            for (String alphabet : ALPHABETS) {
                String text = text(random, alphabet, length);
                byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
                assertThat(JdkMd5.hashUtf8(Md5.NO_PREFIX, text)).as("'%s'", text).isEqualTo(expected(utf8));
                assertThat(JdkMd5.hashUtf8(Md5.NO_PREFIX, new StringBuilder(text))).as("builder '%s'", text)
                        .isEqualTo(expected(utf8));
                assertThat(JdkMd5.hashUtf8('4', text)).as("'4%s'", text).isEqualTo(expected(prefixed('4', utf8)));
            }
        }
    }

    /** Text past the scratch buffer is fed in chunks: every split point, including inside a 4-byte character. */
    @Test
    void textLongerThanTheScratchBufferIsHashedWhole() throws Exception {
        Random random = new Random(23);
        for (int length = JdkMd5.SCRATCH_BYTES - 12; length <= 3 * JdkMd5.SCRATCH_BYTES + 12; length++) {
            for (String alphabet : ALPHABETS) {
                String text = text(random, alphabet, length);
                byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
                assertThat(JdkMd5.hashUtf8(Md5.NO_PREFIX, text)).as("length %d of '%s'", length, alphabet)
                        .isEqualTo(expected(utf8));
                assertThat(JdkMd5.hashUtf8('0', text)).as("prefixed, length %d of '%s'", length, alphabet)
                        .isEqualTo(expected(prefixed('0', utf8)));
            }
        }
        String tail = "x".repeat(JdkMd5.SCRATCH_BYTES - 3) + "\uD83D\uDE00" + "y".repeat(300);
        for (int cut = 0; cut < 8; cut++) {
            String text = tail.substring(cut);
            assertThat(JdkMd5.hashUtf8(Md5.NO_PREFIX, text)).as("pair near the chunk end, cut %d", cut)
                    .isEqualTo(expected(text.getBytes(StandardCharsets.UTF_8)));
        }
    }

    /** A key that throws halfway leaves nothing behind in the thread's digest, nor does a bad range. */
    @Test
    void anAbandonedKeyDoesNotLeakIntoTheNextOne() throws Exception {
        CharSequence failing = new FailingText("abcdefgh", 5);
        assertThatThrownBy(() -> JdkMd5.hashUtf8('1', failing)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> JdkMd5.hashUtf8(Md5.NO_PREFIX, new FailingText("x".repeat(600), 400)))
                .isInstanceOf(IllegalStateException.class);
        byte[] key = "key".getBytes(StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> JdkMd5.hashPrefixed('2', key, 1, 3)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> JdkMd5.hash(key, -1, 2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(JdkMd5.hash(key, 0, key.length)).isEqualTo(expected(key));
        assertThat(JdkMd5.hashUtf8(Md5.NO_PREFIX, "key")).isEqualTo(expected(key));
    }

    /** Threads hashing at once each get their own digest: every answer is the key's own hash. */
    @Test
    void concurrentThreadsGetTheirOwnKeysHashes() throws Exception {
        int threads = 6;
        int keys = 20_000;
        String[] texts = new String[keys];
        int[] want = new int[keys];
        int[] wantPrefixed = new int[keys];
        Random random = new Random(29);
        for (int i = 0; i < keys; i++) {
            texts[i] = text(random, ALPHABETS[i % ALPHABETS.length], random.nextInt(90));
            byte[] utf8 = texts[i].getBytes(StandardCharsets.UTF_8);
            want[i] = expected(utf8);
            wantPrefixed[i] = expected(prefixed('3', utf8));
        }
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                results.add(pool.submit(() -> {
                    start.await();
                    int checked = 0;
                    for (int round = 0; round < 3; round++) {
                        // each thread walks the keys from its own start, so threads hash different keys at once
                        for (int j = 0; j < keys; j++) {
                            int i = (first * 3331 + j) % keys;
                            byte[] utf8 = texts[i].getBytes(StandardCharsets.UTF_8);
                            check(JdkMd5.hashUtf8(Md5.NO_PREFIX, texts[i]) == want[i], "text", i);
                            check(JdkMd5.hash(utf8, 0, utf8.length) == want[i], "bytes", i);
                            check(JdkMd5.hashPrefixed('3', utf8, 0, utf8.length) == wantPrefixed[i], "prefixed bytes", i);
                            check(JdkMd5.hashUtf8('3', texts[i]) == wantPrefixed[i], "prefixed text", i);
                            checked++;
                        }
                    }
                    return checked;
                }));
            }
            start.countDown();
            for (Future<Integer> r : results) {
                assertThat(r.get(300, TimeUnit.SECONDS)).isEqualTo(3 * keys);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Virtual threads (JDK 21+) take the pure-Java fallback, and it gives the same hashes. */
    @Test
    void virtualThreadsTakeTheFallbackWithTheSameHashes() throws Exception {
        Method startVirtualThread;
        try {
            startVirtualThread = Thread.class.getMethod("startVirtualThread", Runnable.class);
        } catch (NoSuchMethodException e) {
            assumeTrue(false, "no virtual threads before JDK 21");
            return;
        }
        String text = "virtual-é-\uD83D\uDE00-" + "k".repeat(300);
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        AtomicReference<Boolean> usesJdk = new AtomicReference<>();
        AtomicInteger[] got = {new AtomicInteger(), new AtomicInteger(), new AtomicInteger()};
        Callable<Void> body = () -> {
            usesJdk.set(JdkMd5.usesJdkDigest());
            got[0].set(JdkMd5.hashUtf8(Md5.NO_PREFIX, text));
            got[1].set(JdkMd5.hash(utf8, 0, utf8.length));
            got[2].set(JdkMd5.hashPrefixed('5', utf8, 0, utf8.length));
            return null;
        };
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread = (Thread) startVirtualThread.invoke(null, (Runnable) () -> {
            try {
                body.call();
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        thread.join(TimeUnit.SECONDS.toMillis(120));
        assertThat(thread.isAlive()).as("virtual thread still running after 120 s").isFalse();
        assertThat(failure.get()).isNull();
        assertThat(usesJdk.get()).isFalse();
        assertThat(got[0].get()).isEqualTo(expected(utf8));
        assertThat(got[1].get()).isEqualTo(expected(utf8));
        assertThat(got[2].get()).isEqualTo(expected(prefixed('5', utf8)));
    }

    private static void check(boolean ok, String what, int key) {
        if (!ok) {
            throw new AssertionError(what + " hash of key " + key + " differs from MessageDigest");
        }
    }

    /** Text whose {@code charAt} fails at one index, as a concurrently changed builder might. */
    private record FailingText(String text, int failAt) implements CharSequence {
        @Override
        public int length() {
            return text.length();
        }

        @Override
        public char charAt(int index) {
            if (index == failAt) {
                throw new IllegalStateException("charAt(" + index + ") failed");
            }
            return text.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return text.subSequence(start, end);
        }
    }
}
