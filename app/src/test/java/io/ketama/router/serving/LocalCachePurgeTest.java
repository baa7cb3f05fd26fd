package io.ketama.router.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.router.caching.CachePolicy;
import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.CacheSettings;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.caching.SharedStrings;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Purges of a member's store: by key (every variant), by tag, a fetch a purge overtook, a fence. */
class LocalCachePurgeTest {

    private static final CachePolicy POLICY = new CachePolicy(CacheSettings.defaults());
    private static final CacheRequest PLAIN = CacheRequest.get(HttpFields.EMPTY);

    private static OriginAnswer answer(String body, String... fields) {
        HttpFields all = HttpFields.of(fields).with("Cache-Control", "max-age=3600");
        return new OriginAnswer(200, all, body.getBytes(StandardCharsets.US_ASCII));
    }

    private static CacheRequest language(String l) {
        return CacheRequest.get(HttpFields.of("Accept-Language", l));
    }

    private static void store(LocalCache cache, String key, OriginAnswer answer, CacheRequest request) {
        cache.store(key, answer, POLICY.selectors(answer, request), request, POLICY);
    }

    @Test
    void aPurgeByKeyDropsEveryVariantOfIt() {
        LocalCache cache = new LocalCache(1 << 20);
        store(cache, "/k", answer("en", "Vary", "Accept-Language"), language("en"));
        store(cache, "/k", answer("de", "Vary", "Accept-Language"), language("de"));
        store(cache, "/other", answer("o"), PLAIN);
        assertThat(cache.purge(List.of("/k"), Set.of())).as("variants dropped").isEqualTo(2);
        assertThat(cache.peek("/k")).isNull();
        assertThat(cache.peek("/other")).isNotNull();
        assertThat(cache.purge(List.of("/k"), Set.of())).as("nothing left to drop").isZero();
    }

    @Test
    void aPurgeByTagDropsEveryAnswerTaggedSoAndNoOther() {
        LocalCache cache = new LocalCache(1 << 20);
        store(cache, "/a", answer("a", "Surrogate-Key", "product-1 front"), PLAIN);
        store(cache, "/b", answer("b", "Cache-Tag", "product-2,front"), PLAIN);
        store(cache, "/c", answer("c", "Surrogate-Key", "product-3"), PLAIN);
        store(cache, "/d", answer("d"), PLAIN);
        assertThat(cache.purge(List.of(), Set.of("front"))).isEqualTo(2);
        assertThat(cache.peek("/a")).isNull();
        assertThat(cache.peek("/b")).isNull();
        assertThat(cache.peek("/c")).isNotNull();
        assertThat(cache.peek("/d")).isNotNull();
        assertThat(cache.purge(List.of("/d"), Set.of("product-3"))).as("keys and tags in one purge").isEqualTo(2);
        assertThat(cache.size()).isZero();
    }

    @Test
    void anAnswerFetchedBeforeAPurgeOfItsKeyOrTagIsNotStoredAfterIt() {
        LocalCache cache = new LocalCache(1 << 20);
        long startedA = cache.marks().mark();
        long startedB = cache.marks().mark();
        cache.purge(List.of("/a"), Set.of("news"));
        assertThat(cache.store("/a", answer("old a"), null, PLAIN, POLICY, startedA)).isFalse();
        assertThat(cache.store("/b", answer("old b", "Surrogate-Key", "news"), null, PLAIN, POLICY, startedB)).isFalse();
        assertThat(cache.store("/c", answer("c"), null, PLAIN, POLICY, startedB)).as("neither its key nor a tag purged").isTrue();
        assertThat(cache.peek("/a")).isNull();
        assertThat(cache.peek("/b")).isNull();
        long after = cache.marks().mark();
        assertThat(cache.store("/a", answer("new a"), null, PLAIN, POLICY, after)).isTrue();
    }

    @Test
    void aRevalidationAPurgeOvertookDoesNotPutItsAnswerBack_rfc9111_4_3_4() {
        LocalCache cache = new LocalCache(1 << 20);
        store(cache, "/a", answer("a"), PLAIN);
        Variant stored = cache.variants("/a").newest();
        long started = cache.marks().mark();
        cache.purge(List.of("/a"), Set.of());
        assertThat(cache.replace("/a", stored, answer("a"), PLAIN, POLICY, started)).isFalse();
        assertThat(cache.peek("/a")).isNull();
    }

    @Test
    void aFenceEmptiesTheStoreAndEveryStoreSharingTheMarks() {
        PurgeMarks marks = new PurgeMarks();
        LocalCache one = new LocalCache(1 << 20, 8, SharedStrings.FIELDS, marks);
        LocalCache two = new LocalCache(1 << 20, 8, SharedStrings.FIELDS, marks);
        store(one, "/a", answer("a"), PLAIN);
        store(two, "/b", answer("b"), PLAIN);
        long started = marks.mark();
        marks.fence("a test");
        assertThat(one.size()).isZero();
        assertThat(two.size()).isZero();
        assertThat(one.store("/c", answer("c"), null, PLAIN, POLICY, started)).as("a fetch under way at the fence").isFalse();
    }
}
