package io.ketama.router.caching;

import static io.ketama.router.caching.CachePolicy.Reuse.FETCH;
import static io.ketama.router.caching.CachePolicy.Reuse.FRESH;
import static io.ketama.router.caching.CachePolicy.Reuse.STALE_ALLOWED;
import static io.ketama.router.caching.CachePolicy.Reuse.STALE_WHILE_REVALIDATE;
import static io.ketama.router.caching.CachePolicy.Reuse.VALIDATE;
import static io.ketama.router.caching.Fixtures.NOW;
import static io.ketama.router.caching.Fixtures.POLICY;
import static io.ketama.router.caching.Fixtures.aged;
import static io.ketama.router.caching.Fixtures.date;
import static io.ketama.router.caching.Fixtures.get;
import static io.ketama.router.caching.Fixtures.ok;
import static io.ketama.router.caching.Fixtures.seconds;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

class ReuseTest {

    private static CachePolicy.Reuse at(long secondsAfter, OriginAnswer stored, CacheRequest request) {
        return POLICY.reuse(stored, request, NOW + seconds(secondsAfter));
    }

    @Test
    void freshWhileTheAgeIsBelowTheLifetime_rfc9111_4_2() {
        OriginAnswer answer = ok("Cache-Control", "max-age=2");
        assertThat(POLICY.reuse(answer, get(), NOW + 1999)).isEqualTo(FRESH);
        assertThat(POLICY.reuse(answer, get(), NOW + 2000)).isEqualTo(FETCH); // age == lifetime: stale
        assertThat(at(0, ok("Cache-Control", "max-age=0"), get())).isEqualTo(FETCH);
    }

    @Test
    void theAgeOnArrivalCounts_rfc9111_4_2_3() {
        assertThat(at(0, aged(seconds(7200), "Cache-Control", "max-age=3600"), get())).isEqualTo(FETCH);
        assertThat(at(0, aged(seconds(1800), "Cache-Control", "max-age=3600"), get())).isEqualTo(FRESH);
    }

    @Test
    void aStaleAnswerIsValidatedWhenItHasAValidatorElseFetched_rfc9111_4_3_1() {
        assertThat(at(3, ok("Cache-Control", "max-age=2", "ETag", "\"a\""), get())).isEqualTo(VALIDATE);
        assertThat(at(3, ok("Cache-Control", "max-age=2", "Last-Modified", date(-100)), get())).isEqualTo(VALIDATE);
        assertThat(at(3, ok("Cache-Control", "max-age=2", "Last-Modified", "yesterday"), get())).isEqualTo(FETCH);
        assertThat(at(3, ok("Cache-Control", "max-age=2"), get())).isEqualTo(FETCH);
    }

    @Test
    void responseNoCacheAlwaysValidates_rfc9111_5_2_2_4() {
        assertThat(at(0, ok("Cache-Control", "max-age=10000, no-cache", "ETag", "\"abcd\""), get())).isEqualTo(VALIDATE);
        assertThat(at(0, ok("Cache-Control", "max-age=10000, No-CaChE"), get())).isEqualTo(FETCH);
        assertThat(at(0, ok("Cache-Control", "max-age=10000, no-cache=\"Set-Cookie\""), get())).isEqualTo(FRESH); // qualified
    }

    @Test
    void requestNoCacheValidates_rfc9111_5_2_1_4() {
        OriginAnswer etag = ok("Cache-Control", "max-age=3600", "ETag", "\"x\"");
        assertThat(at(0, etag, get("Cache-Control", "no-cache"))).isEqualTo(VALIDATE);
        assertThat(at(0, ok("Cache-Control", "max-age=3600"), get("Cache-Control", "no-cache"))).isEqualTo(FETCH);
    }

    @Test
    void pragmaNoCacheCountsOnlyWithoutCacheControl_rfc9111_5_4() {
        OriginAnswer etag = ok("Cache-Control", "max-age=3600", "ETag", "\"x\"");
        assertThat(at(0, etag, get("Pragma", "no-cache"))).isEqualTo(VALIDATE);
        assertThat(at(0, etag, get("Pragma", "foo, No-Cache"))).isEqualTo(VALIDATE);
        assertThat(at(0, etag, get("Pragma", "no-cache", "Cache-Control", "nothing-to-see-here"))).isEqualTo(FRESH);
        assertThat(at(0, etag, get("Pragma", "unrecognised-extension"))).isEqualTo(FRESH);
    }

    @Test
    void requestMaxAgeBoundsTheAge_rfc9111_5_2_1_1() {
        OriginAnswer answer = ok("Cache-Control", "max-age=100000", "ETag", "\"x\"");
        assertThat(at(3, answer, get("Cache-Control", "max-age=0"))).isEqualTo(VALIDATE);
        assertThat(at(3, answer, get("Cache-Control", "max-age=1"))).isEqualTo(VALIDATE);
        assertThat(at(3, answer, get("Cache-Control", "max-age=3"))).isEqualTo(FRESH); // "less than or equal"
        assertThat(at(0, aged(seconds(1800), "Cache-Control", "max-age=100000"), get("Cache-Control", "max-age=600"))).isEqualTo(FETCH);
    }

    @Test
    void requestMinFreshAsksForFreshnessLeft_rfc9111_5_2_1_3() {
        assertThat(at(0, ok("Cache-Control", "max-age=1500"), get("Cache-Control", "min-fresh=2000"))).isEqualTo(FETCH);
        assertThat(at(0, aged(seconds(1000), "Cache-Control", "max-age=1500"), get("Cache-Control", "min-fresh=1000"))).isEqualTo(FETCH);
        assertThat(at(0, aged(seconds(1000), "Cache-Control", "max-age=1500"), get("Cache-Control", "min-fresh=500"))).isEqualTo(FRESH);
    }

    @Test
    void requestMaxStaleAllowsStaleness_rfc9111_5_2_1_2() {
        OriginAnswer stale = ok("Cache-Control", "max-age=2");
        assertThat(at(3, stale, get("Cache-Control", "max-stale=1000"))).isEqualTo(STALE_ALLOWED);
        assertThat(at(3, stale, get("Cache-Control", "max-stale"))).isEqualTo(STALE_ALLOWED);
        assertThat(at(3, stale, get("Cache-Control", "max-stale=0"))).isEqualTo(FETCH);
        assertThat(at(0, aged(seconds(2000), "Cache-Control", "max-age=1500"), get("Cache-Control", "max-stale=1000"))).isEqualTo(STALE_ALLOWED);
        assertThat(at(3, stale, get("Cache-Control", "max-stale, min-fresh=1"))).isEqualTo(FETCH);
    }

    @Test
    void staleWhileRevalidateServesStaleWithinItsWindow_rfc5861_3() {
        OriginAnswer answer = ok("Cache-Control", "max-age=1, stale-while-revalidate=4", "ETag", "\"abc\"");
        assertThat(at(3, answer, get())).isEqualTo(STALE_WHILE_REVALIDATE);
        assertThat(at(5, answer, get())).isEqualTo(STALE_WHILE_REVALIDATE); // 4 s stale: the window's edge
        assertThat(POLICY.reuse(answer, get(), NOW + 5001)).isEqualTo(VALIDATE);
        assertThat(at(3, answer, get("Cache-Control", "max-age=2"))).isEqualTo(VALIDATE); // the client bounds the age
        assertThat(at(3, answer, get("Cache-Control", "no-cache"))).isEqualTo(VALIDATE);
    }

    @Test
    void revalidationDirectivesForbidServingStale_rfc9111_4_2_4() {
        for (String cc : new String[] {"max-age=2, must-revalidate", "max-age=2, proxy-revalidate", "max-age=2, s-maxage=2",
            "s-maxage=2, stale-while-revalidate=60"}) {
            OriginAnswer answer = ok("Cache-Control", cc, "ETag", "\"abcd\"");
            assertThat(at(1, answer, get())).as(cc).isEqualTo(FRESH);
            assertThat(at(3, answer, get("Cache-Control", "max-stale"))).as(cc).isEqualTo(VALIDATE);
            assertThat(at(3, answer, get())).as(cc).isEqualTo(VALIDATE);
        }
    }

    @Test
    void aTargetedFieldsDirectivesDecideReuse_rfc9213_2_2() {
        assertThat(at(0, ok("CDN-Cache-Control", "no-cache", "Cache-Control", "max-age=10000", "Expires", date(10_000)), get())).isEqualTo(FETCH);
        assertThat(at(3, ok("Cache-Control", "max-age=3600", "CDN-Cache-Control", "max-age=1"), get())).isEqualTo(FETCH);
        assertThat(at(3, ok("Cache-Control", "max-age=1", "CDN-Cache-Control", "max-age=3600"), get())).isEqualTo(FRESH);
    }

    @Test
    void onlyIfCachedIsReadFromTheRequest_rfc9111_5_2_1_7() {
        assertThat(POLICY.onlyIfCached(get("Cache-Control", "only-if-cached"))).isTrue();
        assertThat(POLICY.onlyIfCached(get("Cache-Control", "max-age=5, ONLY-IF-CACHED"))).isTrue();
        assertThat(POLICY.onlyIfCached(get())).isFalse();
    }

    @Test
    void aHitWithoutCacheControlOrPragmaParsesAndAllocatesNothing_rfc9111_4() {
        OriginAnswer stored = ok("Cache-Control", "max-age=60", "ETag", "\"a\"", "Content-Type", "text/plain");
        CacheRequest request = get("Accept", "*/*", "User-Agent", "test");
        assertThat(POLICY.reuse(stored, request, NOW)).isEqualTo(FRESH);
        assertThat(request.directives).isSameAs(RequestFacts.NONE); // the shared value: nothing made for this request
        Object facts = stored.directives;
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        CachePolicy.Reuse last = null;
        for (int i = 0; i < 20_000; i++) {
            last = POLICY.reuse(stored, request, NOW + i % 1000);
        }
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 100_000; i++) {
            last = POLICY.reuse(stored, request, NOW + i % 1000);
        }
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        assertThat(last).isEqualTo(FRESH);
        assertThat(stored.directives).isSameAs(facts);
        assertThat(allocated).as("bytes allocated by 100,000 hits").isLessThan(1024);
    }
}
