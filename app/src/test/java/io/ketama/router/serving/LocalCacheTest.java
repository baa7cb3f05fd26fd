package io.ketama.router.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ketama.router.caching.CachePolicy;
import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.CacheSettings;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.caching.SharedStrings;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** What {@link LocalCache} itself keeps: variants by key, the byte bound, and the fetches under way (the rules are {@link KeyServer}'s). */
class LocalCacheTest {

    private static final CachePolicy POLICY = new CachePolicy(CacheSettings.defaults());

    private static OriginAnswer fresh(int bytes) {
        return new OriginAnswer(200, HttpFields.of("Content-Type", "text/plain", "Cache-Control", "max-age=3600"), new byte[bytes]);
    }

    private static OriginAnswer varying(String language) {
        return new OriginAnswer(200, HttpFields.of("Cache-Control", "max-age=3600", "Vary", "Accept-Language",
                "Content-Language", language), language.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    private static CacheRequest asking(String language) {
        return CacheRequest.get(HttpFields.of("Accept-Language", language));
    }

    private static void store(LocalCache cache, String key, OriginAnswer answer, CacheRequest request) {
        cache.store(key, answer, POLICY.selectors(answer, request), request, POLICY);
    }

    @Test
    void aStoredAnswerIsTheKeysVariantUntilInvalidated() {
        LocalCache cache = new LocalCache(1 << 20);
        CacheRequest plain = CacheRequest.get(HttpFields.EMPTY);
        store(cache, "k", fresh(10), plain);
        assertThat(cache.peek("k")).isEqualTo(fresh(10));
        assertThat(cache.variants("k").select(plain, POLICY).answer()).isEqualTo(fresh(10));
        store(cache, "k", fresh(11), plain); // the same request selects it: replaced, not added
        assertThat(cache.variants("k").size()).isEqualTo(1);
        assertThat(cache.peek("k").body()).hasSize(11);
        cache.invalidate("k");
        assertThat(cache.peek("k")).isNull();
        assertThat(cache.variants("k")).isNull();
    }

    @Test
    void answersThatVaryAreKeptSideBySideTheNewestFirst_rfc9111_4_1() {
        LocalCache cache = new LocalCache(1 << 20, 2);
        store(cache, "k", varying("en"), asking("en"));
        store(cache, "k", varying("de"), asking("de"));
        Variants variants = cache.variants("k");
        assertThat(variants.size()).isEqualTo(2);
        assertThat(variants.newest().answer()).isEqualTo(varying("de"));
        assertThat(variants.select(asking("en"), POLICY).answer()).isEqualTo(varying("en"));
        assertThat(variants.select(asking("fr"), POLICY)).isNull();
        store(cache, "k", varying("fr"), asking("fr")); // past max-variants: the oldest goes
        assertThat(cache.variants("k").size()).isEqualTo(2);
        assertThat(cache.variants("k").select(asking("en"), POLICY)).isNull();
        assertThat(cache.variants("k").select(asking("de"), POLICY).answer()).isEqualTo(varying("de"));
    }

    @Test
    void theBoundIsInBytes() {
        long max = 64 * 1024;
        LocalCache cache = new LocalCache(max);
        CacheRequest plain = CacheRequest.get(HttpFields.EMPTY);
        for (int i = 0; i < 200; i++) {
            store(cache, "key-" + i, fresh(1024), plain);
        }
        cache.caffeine().cleanUp();
        assertThat(cache.weightedBytes()).isLessThanOrEqualTo(max);
        // as stored: the store shares the fields' strings, so an entry weighs less than the answer as received
        long lightest = cache.caffeine().asMap().values().stream().mapToLong(Variants::weight).min().orElseThrow();
        assertThat(lightest).isGreaterThan(1024);
        assertThat(cache.size()).isLessThanOrEqualTo(max / lightest).isGreaterThan(0);
    }

    @Test
    void aFieldValueTheAnswerDoesNotShareIsWeighed() {
        SharedStrings strings = new SharedStrings(64);
        byte[] body = new byte[100];
        OriginAnswer plain = new OriginAnswer(200, HttpFields.of("Content-Type", "text/plain").shared(strings), body);
        String etag = new String("\"5f1c-0123456789abcdef\"".toCharArray()); // a value of its own: ETags are never shared
        OriginAnswer tagged = new OriginAnswer(200, HttpFields.of("Content-Type", "text/plain", "ETag", etag).shared(strings), body);

        // the field's value and the longer array; its name and the content type are shared instances
        // (LocalCacheFootprintTest measures what an entry takes with JOL)
        assertThat(LocalCache.weigh("key-1", tagged, strings) - LocalCache.weigh("key-1", plain, strings))
                .isEqualTo(EntryFootprint.string(etag) + EntryFootprint.referenceArray(4) - EntryFootprint.referenceArray(2))
                .isGreaterThanOrEqualTo(etag.length() + 24);
    }

    @Test
    void anAnswerOfNoUseAnyMoreIsNotKept() {
        LocalCache cache = new LocalCache(1 << 20);
        // stale at once, no validator, nothing allows serving it stale: of no use
        OriginAnswer useless = new OriginAnswer(200, HttpFields.of("Cache-Control", "max-age=0, must-revalidate"), new byte[1]);
        store(cache, "k", useless, CacheRequest.get(HttpFields.EMPTY));
        cache.caffeine().cleanUp();
        assertThat(cache.peek("k")).isNull();
    }

    @Test
    void oneFetchLeadsAKeyAndItsWaitersHearWhenItFinishes() {
        LocalCache cache = new LocalCache(1 << 20);
        CompletableFuture<LocalCache.Fetched> mine = new CompletableFuture<>();
        assertThat(cache.lead("k", mine)).isNull();
        assertThat(cache.lead("k", new CompletableFuture<>())).isSameAs(mine);
        assertThat(cache.fetchesUnderWay()).isEqualTo(1);
        LocalCache.Fetched outcome = new LocalCache.Fetched(fresh(1), CacheStatus.MISS, false, null);
        cache.finish("k", mine, outcome, null);
        assertThat(mine).isCompletedWithValue(outcome);
        assertThat(cache.fetchesUnderWay()).isZero();
        assertThat(cache.lead("k", new CompletableFuture<>())).isNull(); // free for the next one
    }

    @Test
    void sizesOutOfRangeAreRefused() {
        assertThatThrownBy(() -> new LocalCache(0)).hasMessageContaining(">= 1 byte");
        assertThatThrownBy(() -> new LocalCache(1 << 20, 0)).hasMessageContaining("1 to 1000");
    }
}
