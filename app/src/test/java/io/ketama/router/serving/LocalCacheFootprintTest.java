package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import io.ketama.router.caching.CachePolicy;
import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.CacheSettings;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.caching.SharedStrings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openjdk.jol.info.GraphLayout;
import org.openjdk.jol.vm.VM;

/**
 * The cache's byte bound against the heap its entries take, measured with JOL on this JVM's own
 * layout (compressed references or not, 8- or 12-byte headers): the bound must hold (the weights
 * cover every byte) and be tight (overcount at most {@link #SLACK_PER_ENTRY} bytes a stored answer). Sizes
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

    private static final CachePolicy POLICY = new CachePolicy(CacheSettings.defaults());

    @ParameterizedTest(name = "{0} entries, {1}-char keys, {2}-byte bodies, typical fields: {3}, variants: {4}")
    @CsvSource({
            "3000, 8, 0, false, 1", "4100, 8, 0, false, 1", "6200, 8, 0, false, 1", "8200, 8, 0, false, 1",
            "12300, 8, 0, false, 1", "16400, 8, 0, false, 1",
            "6200, 3, 1, false, 1", "6200, 13, 100, false, 1", "6200, 40, 1023, false, 1",
            "3000, 8, 1024, false, 1", "6200, 8, 1024, false, 1", "12300, 8, 1024, false, 1",
            "6200, 9, 1025, false, 1", "3000, 20, 4096, false, 1",
            "6200, 8, 1024, true, 1", "3000, 20, 4096, true, 1", "3000, 8, 1024, true, 2", "2000, 8, 100, true, 3"})
    void theBoundCoversEveryByteAndLittleMore(int entries, int keyChars, int bodyBytes, boolean typical, int variants) {
        // a store of shared strings of its own: the JVM's may be full of what other tests stored
        long empty = GraphLayout.parseInstance(new LocalCache(Long.MAX_VALUE, 8, new SharedStrings(1024))).totalSize();
        LocalCache cache = new LocalCache(Long.MAX_VALUE, 8, new SharedStrings(1024));
        for (int i = 0; i < entries; i++) {
            String key = key(i, keyChars);
            for (int v = 0; v < variants; v++) {
                OriginAnswer answer = new OriginAnswer(200, fields(i, typical, variants > 1, v), new byte[bodyBytes]);
                CacheRequest request = CacheRequest.get(variants > 1 ? HttpFields.of("Accept-Encoding", ENCODINGS[v]) : HttpFields.EMPTY);
                cache.store(key, answer, POLICY.selectors(answer, request), request, POLICY);
            }
        }
        cache.caffeine().cleanUp();
        assertThat(cache.size()).isEqualTo(entries);
        assertThat(cache.variants(key(0, keyChars)).size()).isEqualTo(variants);

        long measured = GraphLayout.parseInstance(cache).totalSize() - empty;
        long weighed = cache.weightedBytes();
        double overhead = (double) measured / entries - EntryFootprint.padded(keyChars) - variants * EntryFootprint.padded(bodyBytes);
        System.out.printf(Locale.ROOT, "footprint %s | %,d entries | key %d B | body %,d B | %s fields | %d variants | measured %.1f B/entry (%.1f beyond key and bodies padded to 8) | weighed %.1f B/entry | weighed / measured %.3f%n",
                layout(), entries, keyChars, bodyBytes, typical ? "typical" : "minimal", variants, (double) measured / entries,
                overhead, (double) weighed / entries, (double) weighed / measured);

        assertThat(weighed).as("the bound holds: the weights cover the heap the entries take").isGreaterThanOrEqualTo(measured);
        assertThat(weighed - measured).as("the bound is tight: at most %d bytes a stored answer counted twice", SLACK_PER_ENTRY)
                .isLessThanOrEqualTo((long) SLACK_PER_ENTRY * entries * variants);
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

    private static final String[] ENCODINGS = {"gzip", "br", "identity"};

    /**
     * An answer's fields: minimal (the content type and {@code Cache-Control}, both shared instances),
     * or typical of a static file behind nginx (a {@code Date}, {@code Last-Modified}, {@code ETag} and
     * {@code Content-Length} of its own, the rest shared), with a {@code Vary} where it has variants.
     */
    private static HttpFields fields(int i, boolean typical, boolean varies, int variant) {
        HttpFields.Builder f = HttpFields.builder(10).add("Content-Type", "application/octet-stream")
                .add("Cache-Control", "max-age=3600");
        if (typical) {
            f.add("Server", "nginx/1.22.1")
                    .add("Date", copy("Sun, 06 Dec 2026 04:" + (10 + i % 50) + ":00 GMT"))
                    .add("Last-Modified", copy("Sat, 05 Dec 2026 21:" + (10 + i % 50) + ":07 GMT"))
                    .add("ETag", copy("\"6753a1f3-" + Integer.toHexString(1024 + i) + "\""))
                    .add("Content-Length", copy(Integer.toString(1000 + i)))
                    .add("Accept-Ranges", "bytes");
        }
        if (varies) {
            f.add("Vary", "Accept-Encoding").add("Content-Encoding", ENCODINGS[variant]);
        }
        return f.build();
    }

    private static String copy(String s) {
        return new String(s.toCharArray());
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
