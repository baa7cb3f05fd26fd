package io.ketama.router.hot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ketama.router.caching.CachePolicy;
import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.CacheSettings;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.caching.OriginAnswer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Near copies on their own, on clocks the test moves (Caffeine's ticker for the ttl, the wall clock
 * for the answers' ages): only a hot key's answer the policy would store and serve is kept; it
 * serves for its ttl after it was received and never past its answer's own freshness, only requests
 * its {@code Vary} matches and that ask no more than a stored answer gives; a later answer replaces
 * it with a fresh ttl; the bytes the copies take are bounded.
 */
class NearCacheTest {

    private static final CachePolicy POLICY = new CachePolicy(CacheSettings.defaults());
    private static final CacheRequest PLAIN = CacheRequest.get(HttpFields.EMPTY);

    private final AtomicLong ticker = new AtomicLong(1_000_000_000L);
    private final AtomicLong wall = new AtomicLong(1_800_000_000_000L);
    private final HotKeys hot = new HotKeys(8, 4, Duration.ofSeconds(1), ticker::get);
    private final NearCache near = new NearCache(1 << 20, Duration.ofSeconds(1), hot, POLICY, ticker::get);

    /** An answer that arrived now, {@code age} ms old, with {@code fields}. */
    private OriginAnswer answer(String body, long age, String... fields) {
        return new OriginAnswer(200, HttpFields.of(fields), body.getBytes(StandardCharsets.US_ASCII), wall.get(), age);
    }

    private OriginAnswer fresh(String body) {
        return answer(body, 0, "Cache-Control", "max-age=60");
    }

    private void ask(String key, int times) {
        for (int i = 0; i < times; i++) {
            hot.record(key);
        }
    }

    private OriginAnswer get(String key, CacheRequest request) {
        return near.get(key, request, wall.get());
    }

    private boolean offer(String key, CacheRequest request, OriginAnswer answer) {
        return near.offer(key, request, answer, wall.get());
    }

    @Test
    void onlyAHotKeysAnswerThePolicyWouldStoreAndServeIsKept() {
        ask("warm", 3);
        assertThat(offer("warm", PLAIN, fresh("a"))).as("asked 3 times, 4 make it hot").isFalse();
        assertThat(get("warm", PLAIN)).isNull();
        ask("warm", 1);
        assertThat(offer("warm", PLAIN, fresh("a"))).isTrue();
        assertThat(get("warm", PLAIN).body()).isEqualTo("a".getBytes());

        ask("hot", 10);
        assertThat(offer("hot", PLAIN, answer("p", 0, "Cache-Control", "private, max-age=60"))).as("private").isFalse();
        assertThat(offer("hot", PLAIN, answer("n", 0, "Cache-Control", "no-store, max-age=60"))).as("no-store").isFalse();
        assertThat(offer("hot", PLAIN, answer("c", 0, "Cache-Control", "no-cache, max-age=60"))).as("no-cache").isFalse();
        assertThat(offer("hot", PLAIN, answer("s", 0, "Cache-Control", "max-age=60", "Set-Cookie", "session=alice")))
                .as("Set-Cookie").isFalse();
        assertThat(offer("hot", PLAIN, answer("v", 0, "Cache-Control", "max-age=60", "Vary", "*"))).as("Vary: *").isFalse();
        assertThat(offer("hot", PLAIN, answer("q", 0))).as("no freshness at all").isFalse();
        assertThat(offer("hot", CacheRequest.get(HttpFields.of("Authorization", "Basic YTpi")), fresh("auth")))
                .as("to a request with credentials, not marked shareable").isFalse();
        assertThat(get("hot", PLAIN)).isNull();
        assertThat(near.holds("hot")).isFalse();
        assertThat(offer("hot", PLAIN, new OriginAnswer(404, HttpFields.of("Cache-Control", "max-age=60"), new byte[0],
                wall.get(), 0))).as("a 404 with explicit freshness").isTrue();
    }

    @Test
    void aCopyServesForItsTtlAfterItWasReceivedAndALaterAnswerReplacesIt() {
        ask("k", 10);
        offer("k", PLAIN, fresh("v1"));
        ticker.addAndGet(Duration.ofMillis(999).toNanos());
        assertThat(get("k", PLAIN).body()).as("999 ms after").isEqualTo("v1".getBytes());
        ticker.addAndGet(Duration.ofMillis(1).toNanos());
        assertThat(get("k", PLAIN)).as("1 s after: expired").isNull();
        offer("k", PLAIN, fresh("v2")); // the owner's answer to the next request
        assertThat(get("k", PLAIN).body()).isEqualTo("v2".getBytes());
        ticker.addAndGet(Duration.ofMillis(600).toNanos());
        offer("k", PLAIN, fresh("v3")); // any later answer replaces it, with a fresh ttl
        ticker.addAndGet(Duration.ofMillis(600).toNanos());
        assertThat(get("k", PLAIN).body()).as("1.2 s after v2, 0.6 s after v3").isEqualTo("v3".getBytes());
    }

    @Test
    void aCopyNeverServesPastItsAnswersOwnFreshness_rfc9111_4_2() {
        NearCache longLived = new NearCache(1 << 20, Duration.ofMinutes(10), hot, POLICY, ticker::get);
        ask("k", 10);
        // max-age=5, already 3 s old when its owner sent it: 2 s left here
        assertThat(longLived.offer("k", PLAIN, answer("v", 3_000, "Cache-Control", "max-age=5"), wall.get())).isTrue();
        wall.addAndGet(1_900);
        assertThat(longLived.get("k", PLAIN, wall.get())).as("4.9 s old").isNotNull();
        wall.addAndGet(200);
        assertThat(longLived.get("k", PLAIN, wall.get())).as("5.1 s old: stale, the owner is asked").isNull();
    }

    @Test
    void aCopyAnswersOnlyTheRequestsItsVaryMatches_rfc9111_4_1() {
        ask("k", 10);
        CacheRequest english = CacheRequest.get(HttpFields.of("Accept-Language", "en"));
        offer("k", english, answer("hello", 0, "Cache-Control", "max-age=60", "Vary", "Accept-Language"));
        assertThat(get("k", english).body()).isEqualTo("hello".getBytes());
        assertThat(get("k", CacheRequest.get(HttpFields.of("Accept-Language", "de")))).isNull();
        assertThat(get("k", PLAIN)).isNull();
    }

    @Test
    void aRequestThatAsksMoreThanAStoredAnswerGivesGoesToTheOwner_rfc9111_5_2_1() {
        ask("k", 10);
        offer("k", PLAIN, fresh("v"));
        wall.addAndGet(1_000); // a second old: more than max-age=0 allows
        assertThat(get("k", CacheRequest.get(HttpFields.of("Cache-Control", "no-cache")))).isNull();
        assertThat(get("k", CacheRequest.get(HttpFields.of("Cache-Control", "max-age=0")))).isNull();
        assertThat(get("k", PLAIN)).isNotNull();
    }

    @Test
    void theCopiesBytesAreBounded() {
        NearCache small = new NearCache(64 * 1024, Duration.ofMinutes(1), hot, POLICY, ticker::get);
        byte[] body = new byte[4096];
        for (int i = 0; i < 100; i++) {
            String key = "big-" + i;
            ask(key, 5);
            small.offer(key, PLAIN, new OriginAnswer(200, HttpFields.of("Cache-Control", "max-age=60"), body, wall.get(), 0),
                    wall.get());
        }
        small.caffeine().cleanUp();
        assertThat(small.weightedBytes()).isLessThanOrEqualTo(64 * 1024);
        assertThat(small.size()).isBetween(1L, 15L);
    }

    @Test
    void settingsOutOfRangeAreRefused() {
        assertThatThrownBy(() -> new NearCache(0, Duration.ofSeconds(1), hot, POLICY, ticker::get))
                .hasMessage(".max-bytes: must be 1 to 9223372036854775807 bytes, e.g. 16M; was 0");
        assertThatThrownBy(() -> new NearCache(1, Duration.ZERO, hot, POLICY, ticker::get))
                .hasMessage(".ttl: must be more than 0 and at most 1 h, e.g. 1s; was PT0S");
        assertThatThrownBy(() -> new NearCache(1, Duration.ofHours(2), hot, POLICY, ticker::get))
                .hasMessage(".ttl: must be more than 0 and at most 1 h, e.g. 1s; was PT2H");
    }

    @Test
    void fieldsAQualifiedPrivateOrNoCacheNamesAreNotKept_rfc9111_5_2_2_4_and_5_2_2_7() {
        ask("hot", 10);
        assertThat(offer("hot", PLAIN, answer("a", 0, "Cache-Control", "max-age=60, private=\"X-Owner\", no-cache=\"X-Trace\"",
                "X-Owner", "alice", "X-Trace", "t1", "X-Kept", "yes"))).isTrue();
        HttpFields kept = get("hot", PLAIN).headers();
        assertThat(kept.first("X-Kept")).isEqualTo("yes");
        assertThat(kept.has("X-Owner")).isFalse();
        assertThat(kept.has("X-Trace")).isFalse();
    }

    @Test
    void aPurgeDropsTheCopiesOfItsKeysAndTagsAndKeepsAnAnswerItOvertookOut() {
        io.ketama.router.serving.PurgeMarks marks = new io.ketama.router.serving.PurgeMarks();
        NearCache purged = new NearCache(1 << 20, Duration.ofSeconds(1), hot, POLICY, ticker::get, marks);
        ask("a", 4);
        ask("b", 4);
        ask("c", 4);
        assertThat(purged.offer("a", PLAIN, fresh("a"), wall.get())).isTrue();
        assertThat(purged.offer("b", PLAIN, answer("b", 0, "Cache-Control", "max-age=60", "Cache-Tag", "x,y"), wall.get())).isTrue();
        assertThat(purged.offer("c", PLAIN, fresh("c"), wall.get())).isTrue();
        long forwarded = marks.mark(); // a forward of "a" under way
        marks.purged(java.util.List.of("a"), java.util.Set.of("y"));
        assertThat(purged.purge(java.util.List.of("a"), java.util.Set.of("y"))).isEqualTo(2);
        assertThat(purged.holds("a")).isFalse();
        assertThat(purged.holds("b")).isFalse();
        assertThat(purged.holds("c")).isTrue();
        assertThat(purged.offer("a", PLAIN, fresh("old a"), wall.get(), forwarded)).as("its forward started before the purge").isFalse();
        assertThat(purged.offer("a", PLAIN, fresh("new a"), wall.get(), marks.mark())).isTrue();
        marks.fence("a test");
        assertThat(purged.size()).as("a fence drops every copy").isZero();
    }
}
