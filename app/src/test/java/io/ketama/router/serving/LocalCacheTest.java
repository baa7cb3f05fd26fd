package io.ketama.router.serving;

import io.ketama.router.caching.HttpFields;
import io.ketama.router.caching.OriginAnswer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LocalCacheTest {

    private static OriginAnswer ok(int bytes) {
        return new OriginAnswer(200, "text/plain", new byte[bytes]);
    }

    private static LocalCache.Lookup now(CompletionStage<LocalCache.Lookup> stage) throws Exception {
        return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aMissLoadsAndCachesThenHits() throws Exception {
        LocalCache cache = new LocalCache(1 << 20);
        AtomicInteger loads = new AtomicInteger();
        LocalCache.Lookup first = now(cache.get("k", k -> {
            loads.incrementAndGet();
            return CompletableFuture.completedFuture(ok(10));
        }));
        LocalCache.Lookup second = now(cache.get("k", k -> {
            throw new AssertionError("must not load again");
        }));
        assertThat(first.status()).isEqualTo(CacheStatus.MISS);
        assertThat(second.status()).isEqualTo(CacheStatus.HIT);
        assertThat(second.answer()).isEqualTo(first.answer());
        assertThat(cache.cached("k")).isEqualTo(first.answer());
        assertThat(loads).hasValue(1);
    }

    @Test
    void onlyPlain200AnswersAreCached() throws Exception {
        LocalCache cache = new LocalCache(1 << 20);
        OriginAnswer notFound = new OriginAnswer(404, "text/plain", new byte[3]);
        assertThat(now(cache.get("k", k -> CompletableFuture.completedFuture(notFound))).answer()).isEqualTo(notFound);
        assertThat(cache.peek("k")).isNull();
        assertThat(now(cache.get("k", k -> CompletableFuture.completedFuture(ok(1)))).status()).isEqualTo(CacheStatus.MISS);
    }

    @Test
    void aFailedLoadCachesNothingAndPropagates() throws Exception {
        LocalCache cache = new LocalCache(1 << 20);
        CompletionStage<LocalCache.Lookup> failed = cache.get("k",
                k -> CompletableFuture.failedFuture(new OriginUnavailableException("down", null)));
        assertThat(failed.toCompletableFuture()).failsWithin(10, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(OriginUnavailableException.class);
        assertThat(cache.peek("k")).isNull();
        assertThat(cache.fetchesUnderWay()).isZero();
        assertThat(now(cache.get("k", k -> CompletableFuture.completedFuture(ok(1)))).status()).isEqualTo(CacheStatus.MISS);
    }

    @Test
    void aLoaderThatThrowsIsAFailedLoad() {
        LocalCache cache = new LocalCache(1 << 20);
        CompletionStage<LocalCache.Lookup> failed = cache.get("k", k -> {
            throw new OriginUnavailableException("refused", null);
        });
        assertThat(failed.toCompletableFuture()).failsWithin(10, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(OriginUnavailableException.class);
        assertThat(cache.fetchesUnderWay()).isZero();
    }

    @Test
    void theBoundIsInBytes() throws Exception {
        long max = 64 * 1024;
        LocalCache cache = new LocalCache(max);
        for (int i = 0; i < 200; i++) {
            now(cache.get("key-" + i, k -> CompletableFuture.completedFuture(ok(1024))));
        }
        cache.caffeine().cleanUp();
        assertThat(cache.weightedBytes()).isLessThanOrEqualTo(max);
        long perEntry = LocalCache.weigh("key-100", ok(1024));
        assertThat(cache.size()).isLessThanOrEqualTo(max / perEntry).isGreaterThan(0);
    }

    @Test
    void aFieldValueTheAnswerDoesNotShareIsWeighed() {
        byte[] body = new byte[100];
        OriginAnswer plain = new OriginAnswer(200, HttpFields.of("Content-Type", "text/plain"), body);
        String etag = new String("\"5f1c-0123456789abcdef\"".toCharArray()); // a value of its own: ETags are never shared
        OriginAnswer tagged = new OriginAnswer(200, HttpFields.of("Content-Type", "text/plain", "ETag", etag), body);

        // the field's value and the longer array; its name and the content type are shared instances
        // (LocalCacheFootprintTest measures what an entry takes with JOL)
        assertThat(LocalCache.weigh("key-1", tagged) - LocalCache.weigh("key-1", plain))
                .isEqualTo(EntryFootprint.string(etag) + EntryFootprint.referenceArray(4) - EntryFootprint.referenceArray(2))
                .isGreaterThanOrEqualTo(etag.length() + 24);
    }

    @Test
    void concurrentMissesForOneKeyFetchOnce() throws Exception {
        LocalCache cache = new LocalCache(1 << 20);
        AtomicInteger loads = new AtomicInteger();
        CompletableFuture<OriginAnswer> origin = new CompletableFuture<>();
        List<CompletionStage<LocalCache.Lookup>> lookups = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            lookups.add(cache.get("k", k -> {
                loads.incrementAndGet();
                return origin;
            }));
        }
        assertThat(cache.fetchesUnderWay()).isEqualTo(1);
        assertThat(lookups).allSatisfy(l -> assertThat(l.toCompletableFuture()).isNotDone());
        origin.complete(ok(5));
        for (CompletionStage<LocalCache.Lookup> l : lookups) {
            assertThat(now(l)).isEqualTo(new LocalCache.Lookup(ok(5), CacheStatus.MISS));
        }
        assertThat(loads).hasValue(1);
        assertThat(now(cache.get("k", k -> {
            throw new AssertionError("cached by now");
        })).status()).isEqualTo(CacheStatus.HIT);
    }

    @Test
    void everyRequestThatWaitedForAFailedFetchFailsWithIt() {
        LocalCache cache = new LocalCache(1 << 20);
        AtomicInteger loads = new AtomicInteger();
        CompletableFuture<OriginAnswer> origin = new CompletableFuture<>();
        List<CompletionStage<LocalCache.Lookup>> lookups = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            lookups.add(cache.get("k", k -> {
                loads.incrementAndGet();
                return origin;
            }));
        }
        origin.completeExceptionally(new OriginUnavailableException("down", null));
        assertThat(lookups).allSatisfy(l -> assertThat(l.toCompletableFuture()).failsWithin(10, TimeUnit.SECONDS)
                .withThrowableOfType(ExecutionException.class).withCauseInstanceOf(OriginUnavailableException.class));
        assertThat(loads).hasValue(1);
        assertThat(cache.fetchesUnderWay()).isZero();
    }

    @Test
    void aSizeBelowOneByteIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new LocalCache(0)).hasMessageContaining(">= 1 byte");
    }
}
