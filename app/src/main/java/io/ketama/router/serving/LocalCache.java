package io.ketama.router.serving;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * A member's cache of origin answers, bounded in bytes (Caffeine's size-weighted eviction,
 * W-TinyLFU), with concurrent misses for one key coalesced: the origin sees one fetch per miss,
 * however many requests wait for it.
 */
public final class LocalCache {

    /** Rough per-entry cost beyond key and body: entry, future, record and array headers. */
    static final int ENTRY_OVERHEAD_BYTES = 96;

    private final long maxBytes;
    private final AsyncCache<String, OriginAnswer> cache;

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
                .recordStats()
                .buildAsync();
    }

    static int weigh(String key, OriginAnswer answer) {
        long w = (long) key.length() + answer.body().length + answer.contentType().length() + ENTRY_OVERHEAD_BYTES;
        return (int) Math.min(Integer.MAX_VALUE, w);
    }

    /** One lookup's result: the answer and whether it was already cached. */
    public record Lookup(OriginAnswer answer, CacheStatus status) {
    }

    /**
     * The cached answer for {@code key}, or the one {@code loader} fetches now (cached only when
     * {@link OriginAnswer#cacheable()}). Callers that find a fetch for the key under way wait for
     * it and count as a miss. The loader runs in the calling thread.
     *
     * @throws OriginUnavailableException what the loader threw
     */
    public Lookup get(String key, Function<String, OriginAnswer> loader) {
        ConcurrentMap<String, CompletableFuture<OriginAnswer>> map = cache.asMap();
        CompletableFuture<OriginAnswer> existing = map.get(key);
        if (existing != null && existing.isDone() && !existing.isCompletedExceptionally() && existing.join() != null) {
            return new Lookup(existing.join(), CacheStatus.HIT);
        }
        CompletableFuture<OriginAnswer> mine = new CompletableFuture<>();
        CompletableFuture<OriginAnswer> inFlight = map.putIfAbsent(key, mine);
        if (inFlight != null) {
            return new Lookup(await(inFlight, key, loader), CacheStatus.MISS);
        }
        try {
            OriginAnswer answer = loader.apply(key);
            if (answer.cacheable()) {
                mine.complete(answer);
            } else {
                map.remove(key, mine);
                mine.complete(answer);
            }
            return new Lookup(answer, CacheStatus.MISS);
        } catch (RuntimeException | Error e) {
            map.remove(key, mine);
            // null, not an exception: Caffeine drops null values silently; waiters then try themselves
            mine.complete(null);
            throw e;
        }
    }

    /** Waits for another caller's fetch; when that failed, this caller tries once itself. */
    private static OriginAnswer await(CompletableFuture<OriginAnswer> inFlight, String key, Function<String, OriginAnswer> loader) {
        OriginAnswer answer;
        try {
            answer = inFlight.join();
        } catch (CompletionException e) {
            answer = null;
        }
        return answer != null ? answer : loader.apply(key);
    }

    /** The cached answer, or null; does not count as a request in the statistics. */
    public OriginAnswer peek(String key) {
        CompletableFuture<OriginAnswer> f = cache.asMap().get(key);
        return f != null && f.isDone() && !f.isCompletedExceptionally() ? f.join() : null; // join() may be null: a failed fetch
    }

    /** Entries cached now. */
    public long size() {
        return cache.synchronous().estimatedSize();
    }

    /** Weight (bytes) cached now, as the bound counts it. */
    public long weightedBytes() {
        return cache.synchronous().policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
    }

    public long maxBytes() {
        return maxBytes;
    }

    /** The underlying synchronous view, for metrics binders. */
    public Cache<String, OriginAnswer> caffeine() {
        return cache.synchronous();
    }
}
