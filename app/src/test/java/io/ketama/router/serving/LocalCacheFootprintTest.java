package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openjdk.jol.info.GraphLayout;
import org.openjdk.jol.vm.VM;

/**
 * The cache's byte bound against the heap its entries take, measured with JOL on this JVM's own
 * layout (compressed references or not, 8- or 12-byte headers): the bound must hold (the weights
 * cover every byte) and be tight (overcount at most {@link #SLACK_PER_ENTRY} bytes an entry). Sizes
 * are not timings: the same JVM flags give the same bytes on any machine. Each case prints its line
 * for BENCHMARKS.md ("Bytes per cached answer").
 */
class LocalCacheFootprintTest {

    /** Counted beyond what an entry takes, at most: the figure covers the worst padding and table fill. */
    static final int SLACK_PER_ENTRY = 48;

    @BeforeAll
    static void readFieldOffsetsWithoutUnsafeRefusals() {
        // JOL reads field offsets through Unsafe, which refuses records and hidden classes
        // (Caffeine's lambdas); this mode finds them another way
        System.setProperty("jol.magicFieldOffset", "true");
    }

    @ParameterizedTest(name = "{0} entries, {1}-char keys, {2}-byte bodies")
    @CsvSource({
            "3000, 8, 0", "4100, 8, 0", "6200, 8, 0", "8200, 8, 0", "12300, 8, 0", "16400, 8, 0",
            "6200, 3, 1", "6200, 13, 100", "6200, 40, 1023",
            "3000, 8, 1024", "6200, 8, 1024", "12300, 8, 1024",
            "6200, 9, 1025", "3000, 20, 4096"})
    void theBoundCoversEveryByteAndLittleMore(int entries, int keyChars, int bodyBytes) {
        long empty = GraphLayout.parseInstance(new LocalCache(Long.MAX_VALUE)).totalSize();
        LocalCache cache = new LocalCache(Long.MAX_VALUE);
        for (int i = 0; i < entries; i++) {
            String key = key(i, keyChars);
            OriginAnswer answer = new OriginAnswer(200, "application/octet-stream", new byte[bodyBytes]);
            cache.get(key, k -> CompletableFuture.completedFuture(answer));
        }
        cache.caffeine().cleanUp();
        assertThat(cache.size()).isEqualTo(entries);
        assertThat(cache.fetchesUnderWay()).isZero();

        long measured = GraphLayout.parseInstance(cache).totalSize() - empty;
        long weighed = cache.weightedBytes();
        double overhead = (double) measured / entries - EntryFootprint.padded(keyChars) - EntryFootprint.padded(bodyBytes);
        System.out.printf(Locale.ROOT, "footprint %s | %,d entries | key %d B | body %,d B | measured %.1f B/entry (%.1f beyond key and body padded to 8) | weighed %.1f B/entry (%d beyond) | weighed / measured %.3f%n",
                layout(), entries, keyChars, bodyBytes, (double) measured / entries, overhead, (double) weighed / entries,
                EntryFootprint.OVERHEAD_BYTES, (double) weighed / measured);

        assertThat(weighed).as("the bound holds: the weights cover the heap the entries take").isGreaterThanOrEqualTo(measured);
        assertThat(weighed - measured).as("the bound is tight: at most %d bytes an entry counted twice", SLACK_PER_ENTRY)
                .isLessThanOrEqualTo((long) SLACK_PER_ENTRY * entries);
    }

    @ParameterizedTest(name = "{0} chars, past Latin-1: {1}")
    @CsvSource({"0, false", "1, false", "7, false", "8, false", "9, false", "24, false", "41, false", "64, false",
            "1, true", "5, true", "24, true"})
    void aContentTypeOfItsOwnIsWeighedAsJolMeasuresIt(int chars, boolean pastLatin1) {
        // a fresh instance, as an answer keeps when the shared types are full (never interned)
        String type = new String(("x".repeat(chars - (pastLatin1 ? 1 : 0)) + (pastLatin1 ? "\u0100" : "")).toCharArray());
        long measured = GraphLayout.parseInstance(type).totalSize();
        long weighed = EntryFootprint.string(type);
        System.out.printf(Locale.ROOT, "footprint %s | unshared content type of %d chars%s | measured %d B | weighed %d B%n",
                layout(), chars, pastLatin1 ? " (UTF-16)" : "", measured, weighed);

        assertThat(weighed).as("covers the string").isGreaterThanOrEqualTo(measured);
        assertThat(weighed - measured).as("at most one padding step over").isLessThanOrEqualTo(8);
    }

    /** Key {@code i} of exactly {@code chars} characters, distinct for every {@code i} below 10^chars. */
    private static String key(int i, int chars) {
        String digits = Integer.toString(i, 36);
        if (digits.length() > chars) {
            throw new IllegalArgumentException(i + " needs more than " + chars + " characters");
        }
        return "/".repeat(chars - digits.length()) + digits; // "/" is no base-36 digit: no two keys alike
    }

    private static String layout() {
        String details = VM.current().details();
        boolean compressed = !details.contains("Compressed references (oops): disabled");
        return VM.current().objectHeaderSize() + "-byte headers, " + (compressed ? "compressed" : "wide") + " references";
    }
}
