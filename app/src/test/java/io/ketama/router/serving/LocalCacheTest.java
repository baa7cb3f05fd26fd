package io.ketama.router.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LocalCacheTest {

    private static OriginAnswer ok(int bytes) {
        return new OriginAnswer(200, "text/plain", new byte[bytes]);
    }

    @Test
    void aMissLoadsAndCachesThenHits() {
        LocalCache cache = new LocalCache(1 << 20);
        AtomicInteger loads = new AtomicInteger();
        LocalCache.Lookup first = cache.get("k", k -> {
            loads.incrementAndGet();
            return ok(10);
        });
        LocalCache.Lookup second = cache.get("k", k -> {
            throw new AssertionError("must not load again");
        });
        assertThat(first.status()).isEqualTo(CacheStatus.MISS);
        assertThat(second.status()).isEqualTo(CacheStatus.HIT);
        assertThat(second.answer()).isEqualTo(first.answer());
        assertThat(loads).hasValue(1);
    }

    @Test
    void onlyPlain200AnswersAreCached() {
        LocalCache cache = new LocalCache(1 << 20);
        OriginAnswer notFound = new OriginAnswer(404, "text/plain", new byte[3]);
        assertThat(cache.get("k", k -> notFound).answer()).isEqualTo(notFound);
        assertThat(cache.peek("k")).isNull();
        assertThat(cache.get("k", k -> ok(1)).status()).isEqualTo(CacheStatus.MISS);
    }

    @Test
    void aFailedLoadCachesNothingAndPropagates() {
        LocalCache cache = new LocalCache(1 << 20);
        assertThatThrownBy(() -> cache.get("k", k -> {
            throw new OriginUnavailableException("down", null);
        })).isInstanceOf(OriginUnavailableException.class);
        assertThat(cache.peek("k")).isNull();
        assertThat(cache.get("k", k -> ok(1)).status()).isEqualTo(CacheStatus.MISS);
    }

    @Test
    void theBoundIsInBytes() {
        long max = 64 * 1024;
        LocalCache cache = new LocalCache(max);
        for (int i = 0; i < 200; i++) {
            cache.get("key-" + i, k -> ok(1024));
        }
        cache.caffeine().cleanUp();
        assertThat(cache.weightedBytes()).isLessThanOrEqualTo(max);
        long perEntry = LocalCache.weigh("key-100", ok(1024));
        assertThat(cache.size()).isLessThanOrEqualTo(max / perEntry).isGreaterThan(0);
    }

    @Test
    void concurrentMissesForOneKeyFetchOnce() throws Exception {
        LocalCache cache = new LocalCache(1 << 20);
        AtomicInteger loads = new AtomicInteger();
        CountDownLatch loading = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            Future<LocalCache.Lookup> loader = pool.submit(() -> cache.get("k", k -> {
                loads.incrementAndGet();
                loading.countDown();
                await(release);
                return ok(5);
            }));
            assertThat(loading.await(10, TimeUnit.SECONDS)).isTrue();
            Future<LocalCache.Lookup> waiter1 = pool.submit(() -> cache.get("k", k -> {
                loads.incrementAndGet();
                return ok(5);
            }));
            Future<LocalCache.Lookup> waiter2 = pool.submit(() -> cache.get("k", k -> {
                loads.incrementAndGet();
                return ok(5);
            }));
            release.countDown();
            assertThat(loader.get(10, TimeUnit.SECONDS).status()).isEqualTo(CacheStatus.MISS);
            assertThat(waiter1.get(10, TimeUnit.SECONDS).answer()).isEqualTo(ok(5));
            assertThat(waiter2.get(10, TimeUnit.SECONDS).answer()).isEqualTo(ok(5));
            assertThat(loads).hasValue(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSizeBelowOneByteIsRefused() {
        assertThatThrownBy(() -> new LocalCache(0)).hasMessageContaining(">= 1 byte");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
