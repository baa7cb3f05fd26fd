package io.ketama.router.caching;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The purge tags an answer carries, in Fastly's and Cloudflare's forms. */
class CacheTagsTest {

    @Test
    void surrogateKeysAreSeparatedBySpacesAndCacheTagsByCommas() {
        assertThat(CacheTags.of(HttpFields.of("Surrogate-Key", "  product-1  news\tfront "))).containsExactly("product-1", "news", "front");
        assertThat(CacheTags.of(HttpFields.of("Cache-Tag", "a, b ,c,,"))).containsExactly("a", "b", "c");
        assertThat(CacheTags.of(HttpFields.of("cache-tag", "Cased"))).as("field names are case-insensitive, tags not").containsExactly("Cased");
    }

    @Test
    void everyLineOfBothFieldsCountsEachTagOnce() {
        HttpFields fields = HttpFields.of("Surrogate-Key", "a b", "Content-Type", "text/plain", "Cache-Tag", "b,c", "Surrogate-Key", "d a");
        assertThat(CacheTags.of(fields)).containsExactly("a", "b", "c", "d");
        assertThat(CacheTags.tagged(fields)).isTrue();
    }

    @Test
    void anAnswerWithoutTagsHasNone() {
        assertThat(CacheTags.of(HttpFields.of("Content-Type", "text/plain"))).isEmpty();
        assertThat(CacheTags.tagged(HttpFields.of("Content-Type", "text/plain"))).isFalse();
    }

    @Test
    void atMostTheBoundIsRead() {
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < CacheTags.MAX_TAGS + 50; i++) {
            many.append("t").append(i).append(' ');
        }
        assertThat(CacheTags.of(HttpFields.of("Surrogate-Key", many.toString()))).hasSize(CacheTags.MAX_TAGS);
    }
}
