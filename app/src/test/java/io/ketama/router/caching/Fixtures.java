package io.ketama.router.caching;

import java.nio.charset.StandardCharsets;

/** Answers and requests for the policy's unit tests, at a fixed time. */
final class Fixtures {

    /** 2026-03-01T12:00:00Z. */
    static final long NOW = 1_772_366_400_000L;
    static final CachePolicy POLICY = new CachePolicy(CacheSettings.defaults());

    private Fixtures() {
    }

    /** A 200 with {@code fields} (names and values alternating) that arrived at {@link #NOW}, aged 0. */
    static OriginAnswer ok(String... fields) {
        return answer(200, fields);
    }

    static OriginAnswer answer(int status, String... fields) {
        return new OriginAnswer(status, HttpFields.of(fields), "0123456789".getBytes(StandardCharsets.ISO_8859_1), NOW, 0);
    }

    /** As {@link #answer}, aged {@code initialAgeMillis} on arrival. */
    static OriginAnswer aged(long initialAgeMillis, String... fields) {
        return new OriginAnswer(200, HttpFields.of(fields), new byte[0], NOW, initialAgeMillis);
    }

    static CacheRequest get(String... fields) {
        return CacheRequest.get(HttpFields.of(fields));
    }

    static CacheRequest request(String method, String... fields) {
        return new CacheRequest(method, HttpFields.of(fields));
    }

    /** The IMF-fixdate {@code seconds} from {@link #NOW}. */
    static String date(long seconds) {
        return HttpDates.format(NOW + seconds * 1000);
    }

    static long seconds(long s) {
        return s * 1000;
    }
}
