package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * A member's cache of origin answers, bounded in bytes of heap (Caffeine's size-weighted eviction,
 * W-TinyLFU; an entry weighs the heap JOL measured such an entry to take, {@link #weigh}), with
 * concurrent misses for one key coalesced (single flight): while a key's fetch is under way, every
 * further miss for it waits for that fetch, so the origin sees one request per key at a time
 * however many clients ask. Waiting holds no thread.
 */
public final class LocalCache {

    private final long maxBytes;
    private final Cache<String, OriginAnswer> cache;
    /** Fetches under way, by key; an entry leaves only after a cacheable answer is in {@link #cache}. */
    private final ConcurrentMap<String, CompletableFuture<OriginAnswer>> fetches = new ConcurrentHashMap<>();

    /**
     * @param maxBytes the most bytes (keys, bodies and per-entry overhead) kept, at least 1
     * @throws IllegalArgumentException when {@code maxBytes < 1}
     */
    public LocalCache(long maxBytes) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("cache size must be >= 1 byte, was " + maxBytes);
        }
        this.maxBytes = maxBytes;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((String key, OriginAnswer answer) -> weigh(key, answer))
                // eviction bookkeeping on the writing thread: no pool thread is woken per write
                .executor(Runnable::run)
                .recordStats()
                .build();
    }

    /**
     * The heap bytes an entry takes: its key (one byte a char: keys are raw bytes, so Latin-1
     * strings) and its body, each rounded up to 8 bytes as the JVM pads arrays,
     * {@link EntryFootprint#OVERHEAD_BYTES}, and its header fields: their array, and every name or
     * value that is not a shared instance ({@link io.ketama.router.caching.SharedStrings}).
     */
    public static int weigh(String key, OriginAnswer answer) {
        long w = EntryFootprint.padded(key.length()) + EntryFootprint.padded(answer.body().length) + EntryFootprint.OVERHEAD_BYTES
                + answer.headers().heapBytes(EntryFootprint::referenceArray, EntryFootprint::string);
        return (int) Math.min(Integer.MAX_VALUE, w);
    }

    /** One lookup's result: the answer and whether it was already cached. */
    public record Lookup(OriginAnswer answer, CacheStatus status) {
    }

    /**
     * The cached answer for {@code key}, counted as a hit or a miss in the statistics; null when
     * not cached.
     */
    public OriginAnswer cached(String key) {
        return cache.getIfPresent(key);
    }

    /**
     * The cached answer for {@code key} (a {@link CacheStatus#HIT}), or the one {@code loader}
     * fetches now, or the one a fetch already under way for the key brings (both a
     * {@link CacheStatus#MISS}). Only a {@code 200} is kept. A failed
     * fetch caches nothing and fails every request that waited for it.
     *
     * @param loader starts a fetch; called at most once per call, never while a fetch for the key is under way
     */
    public CompletionStage<Lookup> get(String key, Function<String, CompletionStage<OriginAnswer>> loader) {
        OriginAnswer hit = cache.getIfPresent(key);
        if (hit != null) {
            return CompletableFuture.completedFuture(new Lookup(hit, CacheStatus.HIT));
        }
        CompletableFuture<OriginAnswer> mine = new CompletableFuture<>();
        CompletableFuture<OriginAnswer> underWay = fetches.putIfAbsent(key, mine);
        if (underWay != null) {
            return underWay.thenApply(LocalCache::miss);
        }
        // a fetch may have finished between the look-up above and taking the key
        OriginAnswer cachedMeanwhile = cache.asMap().get(key);
        if (cachedMeanwhile != null) {
            fetches.remove(key, mine);
            mine.complete(cachedMeanwhile);
            return CompletableFuture.completedFuture(new Lookup(cachedMeanwhile, CacheStatus.HIT));
        }
        CompletionStage<OriginAnswer> fetch;
        try {
            fetch = loader.apply(key);
        } catch (RuntimeException e) {
            fetch = CompletableFuture.failedFuture(e);
        }
        fetch.whenComplete((answer, failure) -> {
            if (failure == null && answer.status() == 200) {
                cache.put(key, answer); // before the key is released, so no request finds neither
            }
            fetches.remove(key, mine);
            if (failure != null) {
                mine.completeExceptionally(failure);
            } else {
                mine.complete(answer);
            }
        });
        return mine.thenApply(LocalCache::miss);
    }

    private static Lookup miss(OriginAnswer answer) {
        return new Lookup(answer, CacheStatus.MISS);
    }

    /** The cached answer, or null; does not count in the statistics. */
    public OriginAnswer peek(String key) {
        return cache.asMap().get(key);
    }

    /** Fetches under way now (keys being fetched). */
    public int fetchesUnderWay() {
        return fetches.size();
    }

    /** Entries cached now. */
    public long size() {
        return cache.estimatedSize();
    }

    /** Weight (bytes) cached now, as the bound counts it. */
    public long weightedBytes() {
        return cache.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
    }

    public long maxBytes() {
        return maxBytes;
    }

    /** The underlying cache, for metrics binders. */
    public Cache<String, OriginAnswer> caffeine() {
        return cache;
    }
}
