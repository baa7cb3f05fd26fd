package io.ketama.router.hot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ketama.router.caching.OriginAnswer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Near copies on their own, on a clock the test moves: only a hot key's plain 200 answer is kept; it
 * serves for its ttl after it was received and not a nanosecond longer; a later answer replaces it
 * with a fresh ttl; the bytes the copies take are bounded.
 */
class NearCacheTest {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final HotKeys hot = new HotKeys(8, 4, Duration.ofSeconds(1), now::get);
    private final NearCache near = new NearCache(1 << 20, Duration.ofSeconds(1), hot, now::get);

    private static OriginAnswer answer(String body) {
        return new OriginAnswer(200, "text/plain", body.getBytes());
    }

    private void ask(String key, int times) {
        for (int i = 0; i < times; i++) {
            hot.record(key);
        }
    }

    @Test
    void onlyAHotKeysPlainAnswerIsKept() {
        ask("warm", 3);
        assertThat(near.offer("warm", answer("a"))).as("asked 3 times, 4 make it hot").isFalse();
        assertThat(near.get("warm")).isNull();
        ask("warm", 1);
        assertThat(near.offer("warm", answer("a"))).isTrue();
        assertThat(near.get("warm").body()).isEqualTo("a".getBytes());
        ask("moved", 10);
        assertThat(near.offer("moved", new OriginAnswer(301, "text/plain", new byte[0], "/x"))).as("a redirect").isFalse();
        assertThat(near.offer("moved", new OriginAnswer(404, "text/plain", new byte[0]))).as("a 404").isFalse();
        assertThat(near.get("moved")).isNull();
    }

    @Test
    void aCopyServesForItsTtlAfterItWasReceivedAndALaterAnswerReplacesIt() {
        ask("k", 10);
        near.offer("k", answer("v1"));
        now.addAndGet(Duration.ofMillis(999).toNanos());
        assertThat(near.get("k").body()).as("999 ms after").isEqualTo("v1".getBytes());
        now.addAndGet(Duration.ofMillis(1).toNanos());
        assertThat(near.get("k")).as("1 s after: expired").isNull();
        near.offer("k", answer("v2")); // the owner's answer to the next request
        assertThat(near.get("k").body()).isEqualTo("v2".getBytes());
        now.addAndGet(Duration.ofMillis(600).toNanos());
        near.offer("k", answer("v3")); // any later answer replaces it, with a fresh ttl
        now.addAndGet(Duration.ofMillis(600).toNanos());
        assertThat(near.get("k").body()).as("1.2 s after v2, 0.6 s after v3").isEqualTo("v3".getBytes());
    }

    @Test
    void theCopiesBytesAreBounded() {
        NearCache small = new NearCache(64 * 1024, Duration.ofMinutes(1), hot, now::get);
        byte[] body = new byte[4096];
        for (int i = 0; i < 100; i++) {
            String key = "big-" + i;
            ask(key, 5);
            small.offer(key, new OriginAnswer(200, "application/octet-stream", body));
        }
        small.caffeine().cleanUp();
        assertThat(small.weightedBytes()).isLessThanOrEqualTo(64 * 1024);
        assertThat(small.size()).isBetween(1L, 15L);
    }

    @Test
    void settingsOutOfRangeAreRefused() {
        assertThatThrownBy(() -> new NearCache(0, Duration.ofSeconds(1), hot, now::get))
                .hasMessage(".max-bytes: must be 1 to 9223372036854775807 bytes, e.g. 16M; was 0");
        assertThatThrownBy(() -> new NearCache(1, Duration.ZERO, hot, now::get))
                .hasMessage(".ttl: must be more than 0 and at most 1 h, e.g. 1s; was PT0S");
        assertThatThrownBy(() -> new NearCache(1, Duration.ofHours(2), hot, now::get))
                .hasMessage(".ttl: must be more than 0 and at most 1 h, e.g. 1s; was PT2H");
    }
}
