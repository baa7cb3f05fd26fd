package io.ketama.router.serving;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.ketama.router.caching.CachePolicy;
import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.CacheTags;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.caching.SharedStrings;
import io.ketama.router.caching.OriginAnswer;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

/**
 * A member's stored answers, by key, each key with its variants ({@link Variants}: the answers of
 * one key that differ by what their {@code Vary} names), bounded in bytes of heap (Caffeine's
 * size-weighted eviction, W-TinyLFU; an entry weighs the heap JOL measured such an entry to take,
 * {@link #weigh}), and expired once no variant of a key can be of any use any more (fresh, servable
 * stale, or worth a revalidation: {@link CachePolicy#usefulPastStaleMillis}).
 *
 * <p>It also keeps the fetches under way, by key ({@link #lead}): while one is under way for a key,
 * further requests for the key wait for it instead of asking the origin again (single flight), and
 * take its answer only where the cache stored it and it matches their request; the
 * {@link KeyServer} decides that. Waiting holds no thread.
 *
 * <p>What it stores it is told: the policy's decisions are the {@link KeyServer}'s. It only applies
 * RFC 9111 §4.1's replacement rule when an answer is stored: the new one replaces every variant that
 * would answer the same request, and a key keeps at most {@code maxVariants}, the most recent first.
 */
public final class LocalCache {

    /** Variants kept per key where none is configured: a {@code Vary: Accept-Encoding} key needs 2 or 3. */
    public static final int DEFAULT_MAX_VARIANTS = 8;

    private final long maxBytes;
    private final int maxVariants;
    /** The instances its answers' fields share (names, repeating values). */
    private final SharedStrings strings;
    private final Cache<String, Variants> cache;
    /** Fetches under way, by key; an entry leaves once its answer is stored (or known not to be). */
    private final ConcurrentMap<String, CompletableFuture<Fetched>> fetches = new ConcurrentHashMap<>();
    private final PurgeMarks marks;

    /** A cache of at most {@code maxBytes} and {@link #DEFAULT_MAX_VARIANTS} variants a key. */
    public LocalCache(long maxBytes) {
        this(maxBytes, DEFAULT_MAX_VARIANTS);
    }

    /**
     * @param maxBytes    the most bytes (keys, answers and per-entry overhead) kept, at least 1
     * @param maxVariants the most variants kept per key, 1 to 1,000
     * @throws IllegalArgumentException when either is out of range
     */
    public LocalCache(long maxBytes, int maxVariants) {
        this(maxBytes, maxVariants, SharedStrings.FIELDS);
    }

    /** As {@link #LocalCache(long, int)}, its answers' fields sharing {@code strings}' instances (a test's own). */
    public LocalCache(long maxBytes, int maxVariants, SharedStrings strings) {
        this(maxBytes, maxVariants, strings, new PurgeMarks());
    }

    /** As {@link #LocalCache(long, int, SharedStrings)}, purged and fenced by the member's {@code marks}. */
    public LocalCache(long maxBytes, int maxVariants, SharedStrings strings, PurgeMarks marks) {
        this.marks = java.util.Objects.requireNonNull(marks, "marks");
        this.strings = java.util.Objects.requireNonNull(strings, "strings");
        if (maxBytes < 1) {
            throw new IllegalArgumentException("cache size must be >= 1 byte, was " + maxBytes);
        }
        checkMaxVariants(maxVariants);
        this.maxBytes = maxBytes;
        this.maxVariants = maxVariants;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((String key, Variants variants) -> variants.weight())
                .expireAfter(new Expiry<String, Variants>() {
                    @Override
                    public long expireAfterCreate(String key, Variants variants, long currentTime) {
                        return untilUseless(variants);
                    }

                    @Override
                    public long expireAfterUpdate(String key, Variants variants, long currentTime, long currentDuration) {
                        return untilUseless(variants);
                    }

                    @Override
                    public long expireAfterRead(String key, Variants variants, long currentTime, long currentDuration) {
                        return currentDuration;
                    }
                })
                // eviction bookkeeping on the writing thread: no pool thread is woken per write
                .executor(Runnable::run)
                .recordStats()
                .build();
        marks.onFence(this::dropAll);
    }

    /** @throws IllegalArgumentException when {@code maxVariants} is outside 1 to 1,000 */
    public static void checkMaxVariants(int maxVariants) {
        if (maxVariants < 1 || maxVariants > 1000) {
            throw new IllegalArgumentException("must be 1 to 1000, was " + maxVariants);
        }
    }

    private static long untilUseless(Variants variants) {
        long millis = variants.usefulUntil() - System.currentTimeMillis();
        return millis <= 0 ? 0 : millis >= Long.MAX_VALUE / 1_000_000 ? Long.MAX_VALUE : TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /**
     * The heap bytes an answer stored under {@code key} takes: its key (one byte a char: keys are raw
     * bytes, so Latin-1 strings) and its body, each rounded up to 8 bytes as the JVM pads arrays,
     * {@link EntryFootprint#OVERHEAD_BYTES}, and its header fields: their array, and every name or
     * value that is not a shared instance ({@link SharedStrings}). A key's
     * further variants each add their answer, fields and {@link EntryFootprint#VARIANT_BYTES}.
     */
    public static int weigh(String key, OriginAnswer answer) {
        return weigh(key, answer, SharedStrings.FIELDS);
    }

    /** {@link #weigh(String, OriginAnswer)}, the strings {@code shared} keeps not counted. */
    static int weigh(String key, OriginAnswer answer, SharedStrings shared) {
        long w = EntryFootprint.padded(key.length()) + EntryFootprint.OVERHEAD_BYTES + answerBytes(answer, null, shared);
        return (int) Math.min(Integer.MAX_VALUE, w);
    }

    /** What one variant's answer and selectors take beyond the entry's own overhead, the strings {@code shared} keeps not counted. */
    static long answerBytes(OriginAnswer answer, String[] selectors, SharedStrings shared) {
        long w = EntryFootprint.padded(answer.body().length)
                + answer.headers().heapBytes(shared, EntryFootprint::referenceArray, EntryFootprint::string);
        if (selectors != null) {
            w += EntryFootprint.referenceArray(selectors.length);
            for (String s : selectors) {
                if (s != null) {
                    w += EntryFootprint.string(s);
                }
            }
        }
        return w;
    }

    /** The variants stored for {@code key}, counted as a hit or a miss in the statistics; null when none. */
    public Variants variants(String key) {
        marks.awake();
        return cache.getIfPresent(key);
    }

    /** The variants stored for {@code key}, or null; does not count in the statistics. */
    public Variants peekVariants(String key) {
        return cache.asMap().get(key);
    }

    /**
     * The newest variant of {@code key}, or null; does not count in the statistics. For tests and
     * tools that ask what a member holds.
     */
    public OriginAnswer peek(String key) {
        Variants v = cache.asMap().get(key);
        return v == null ? null : v.newest().answer();
    }

    /**
     * Stores {@code answer} (already {@linkplain CachePolicy#forStorage made fit to store}) under
     * {@code key} as the answer to {@code request}: it replaces every variant {@code request} would
     * select (RFC 9111 §4.1), and the oldest go past {@code maxVariants}.
     *
     * @param selectors the request's values for the answer's {@code Vary} ({@link CachePolicy#selectors})
     */
    public void store(String key, OriginAnswer answer, String[] selectors, CacheRequest request, CachePolicy policy) {
        store(key, answer, selectors, request, policy, marks.mark());
    }

    /**
     * {@link #store(String, OriginAnswer, String[], CacheRequest, CachePolicy)} of an answer whose
     * fetch started at {@code mark} ({@link PurgeMarks#mark()}): not stored where its key or one of its
     * tags was purged since.
     *
     * @return whether it was stored
     */
    public boolean store(String key, OriginAnswer answer, String[] selectors, CacheRequest request, CachePolicy policy, long mark) {
        return storeUnlessPurged(key, answer, selectors, request, policy, mark);
    }

    /**
     * Stores {@code answer} under {@code key} unless a purge of the key or one of its tags came after
     * {@code mark}. Looked at before and after the store: a purge that begins between the two either
     * finds the entry in the map (its removal comes after its mark) or is seen by the second look,
     * which takes the entry out again.
     */
    private boolean storeUnlessPurged(String key, OriginAnswer answer, String[] selectors, CacheRequest request, CachePolicy policy,
                                      long mark) {
        java.util.List<String> tags = CacheTags.of(answer.headers());
        if (marks.purgedSince(mark, key, tags)) {
            return false;
        }
        OriginAnswer kept = sharing(answer);
        Variant made = new Variant(kept, selectors);
        long usefulUntil = usefulUntil(kept, policy);
        Variants stored = cache.asMap().compute(key,
                (k, old) -> Variants.storing(k, made, usefulUntil, old, request, policy, maxVariants, strings));
        if (marks.purgedSince(mark, key, tags)) {
            cache.asMap().remove(key, stored);
            return false;
        }
        return true;
    }

    /** {@code answer} with its fields' names and repeating values as the shared instances: what it keeps takes the least heap. */
    private OriginAnswer sharing(OriginAnswer answer) {
        HttpFields shared = answer.headers().shared(strings);
        return shared == answer.headers() ? answer : answer.with(shared, answer.responseTime(), answer.initialAgeMillis());
    }

    /**
     * Replaces the variant {@code replaced} of {@code key} by {@code freshened} (a {@code 304}
     * freshened it, RFC 9111 §4.3.4), keeping its selectors; stores it as the newest where
     * {@code replaced} is gone meanwhile; not where its key or one of its tags was purged since
     * {@code mark}, the mark the revalidation took when it started.
     *
     * @return whether it was stored
     */
    public boolean replace(String key, Variant replaced, OriginAnswer freshened, CacheRequest request, CachePolicy policy,
                           long mark) {
        return storeUnlessPurged(key, freshened, replaced.selectors(), request, policy, mark);
    }

    /** The moment (epoch ms) after which {@code answer} is of no use at all: fresh, servable stale, or worth validating. */
    private static long usefulUntil(OriginAnswer answer, CachePolicy policy) {
        long fresh = answer.responseTime() - answer.initialAgeMillis() + policy.freshnessLifetimeMillis(answer);
        long past = policy.usefulPastStaleMillis(answer);
        return past >= Long.MAX_VALUE - Math.max(0, fresh) ? Long.MAX_VALUE : fresh + past;
    }

    /** Drops every variant of {@code key}; those being fetched still reach who waits for them. */
    public void invalidate(String key) {
        marks.purged(java.util.List.of(key), java.util.List.of());
        cache.invalidate(key);
    }

    /**
     * Drops every variant of {@code keys} and every stored answer tagged with one of {@code tags}
     * ({@link CacheTags}); the fetches under way for them store nothing. A purge by tag reads every
     * stored answer's tag fields once (the store is its own index: no memory beside the answers).
     *
     * @return the stored answers (variants) dropped
     */
    public int purge(Collection<String> keys, java.util.Set<String> tags) {
        marks.purged(keys, tags);
        Map<String, Variants> map = cache.asMap();
        int dropped = 0;
        for (String key : keys) {
            Variants gone = map.remove(key);
            dropped += gone == null ? 0 : gone.size();
        }
        if (!tags.isEmpty()) {
            for (Map.Entry<String, Variants> e : map.entrySet()) {
                if (tagged(e.getValue(), tags) && map.remove(e.getKey(), e.getValue())) {
                    dropped += e.getValue().size();
                }
            }
        }
        return dropped;
    }

    private static boolean tagged(Variants variants, java.util.Set<String> tags) {
        for (int i = 0; i < variants.size(); i++) {
            HttpFields fields = variants.get(i).answer().headers();
            if (CacheTags.tagged(fields)) {
                for (String t : CacheTags.of(fields)) {
                    if (tags.contains(t)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Drops every stored answer (the member fenced: it may have missed a purge). */
    void dropAll() {
        cache.invalidateAll();
    }

    /** The marks its purges and fences keep. */
    public PurgeMarks marks() {
        return marks;
    }

    /**
     * Takes the lead of a fetch for {@code key}: null when this caller leads (it must
     * {@link #finish} the fetch), else the fetch already under way, which the caller waits for.
     *
     * @param mine what the caller's fetch will complete if it leads
     */
    public CompletableFuture<Fetched> lead(String key, CompletableFuture<Fetched> mine) {
        return fetches.putIfAbsent(key, mine);
    }

    /** Ends the fetch {@code mine} leads for {@code key}: the key is free for the next one, then its waiters hear. */
    public void finish(String key, CompletableFuture<Fetched> mine, Fetched outcome, Throwable failure) {
        fetches.remove(key, mine);
        if (failure != null) {
            mine.completeExceptionally(failure);
        } else {
            mine.complete(outcome);
        }
    }

    /**
     * What a fetch brought, as its waiters read it.
     *
     * @param answer   the answer the leader got (from the origin, freshened, or stale on an error)
     * @param status   how the leader came by it ({@link CacheStatus#MISS}, {@link CacheStatus#REVALIDATED},
     *                 {@link CacheStatus#STALE}), which a waiter that takes it reports too
     * @param stored   whether the cache stored it (only then may a waiter take it)
     * @param variant  the variant stored, with its selectors; null when not stored
     */
    public record Fetched(OriginAnswer answer, CacheStatus status, boolean stored, Variant variant) {
    }

    /** Fetches under way now (keys being fetched). */
    public int fetchesUnderWay() {
        return fetches.size();
    }

    /** Keys stored now. */
    public long size() {
        return cache.estimatedSize();
    }

    /** Weight (bytes) stored now, as the bound counts it. */
    public long weightedBytes() {
        return cache.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
    }

    public long maxBytes() {
        return maxBytes;
    }

    public int maxVariants() {
        return maxVariants;
    }

    /** The underlying cache, for metrics binders. */
    public Cache<String, Variants> caffeine() {
        return cache;
    }
}
