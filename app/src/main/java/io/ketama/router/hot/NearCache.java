package io.ketama.router.hot;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.ketama.router.caching.CachePolicy;
import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.caching.SharedStrings;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.PurgeMarks;
import io.ketama.router.serving.Variant;
import io.ketama.router.caching.OriginAnswer;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Near copies of hot keys on an entry member: the answers other members sent it for the keys it is
 * asked for most, kept a short while so that their next requests entering here need no hop.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>What may be kept</b>: an answer another member served for a key this member does not own,
 *       once {@link HotKeys} counts the key hot here (at least {@code min-requests} in its window), and
 *       only where the one {@link CachePolicy} would store it for the request it answered (never
 *       {@code private}, {@code no-store}, {@code Set-Cookie}, {@code Vary: *}, a request with
 *       {@code Authorization} unless the answer allows it) and it is fresh for that request as it
 *       arrives (so never one that says {@code no-cache}). Never a bypass, nor (the caller's rule) an
 *       answer to a request that required features. One copy per key, with the values its {@code Vary}
 *       selected it by.</li>
 *   <li><b>Whom it answers</b>: a request it matches by {@code Vary}, while it is fresh for that request
 *       by the policy (its age is its owner's age when sent plus its time here, RFC 9111 §4.2.3), so a
 *       near copy never serves past its answer's freshness nor a request that asks more
 *       ({@code no-cache}, {@code max-age}, {@code min-fresh}); anything else goes to the owner.</li>
 *   <li><b>For how long</b>: at most {@code ttl} from the moment it was received ({@code expireAfterWrite}),
 *       so a near copy is never more than {@code ttl} older than the answer its owner had when it sent
 *       it, whatever the answer's own freshness. Then the next request goes to the owner again, and its
 *       answer, the owner's newest, replaces the copy with a fresh {@code ttl} (as any later answer for
 *       the key does).</li>
 *   <li><b>How much</b>: at most {@code maxBytes} of heap, each entry weighed as the local cache weighs
 *       one ({@link LocalCache#weigh}: key, body, the overhead JOL measured); past it Caffeine's W-TinyLFU
 *       keeps the more frequent keys. Its own bound: the copies do not hold bytes of the body budget,
 *       whose bodies it may share (an answer's body array is never written after it is made).</li>
 * </ul>
 * <li><b>Purges</b>: a purge drops the copies of its keys and tags here ({@link #purge}), an answer
 *     whose forward started before a purge of its key or tag is not kept ({@link PurgeMarks}), and a
 *     fence of the member drops every copy.</li>
 * A lookup ({@link #get}) allocates nothing and takes no lock; an answer is offered
 * ({@link #offer}) after every forward, and only the hot keys' answers are written.
 */
public final class NearCache {

    private final Cache<String, Variant> cache;
    private final HotKeys hot;
    private final CachePolicy policy;
    private final long maxBytes;
    private final Duration ttl;
    private final PurgeMarks marks;

    /**
     * The ranges of {@link #NearCache}'s settings ({@code ketama.router.near-cache.*}).
     *
     * @throws IllegalArgumentException naming the setting below its key, the value and the range
     */
    public static void check(long maxBytes, Duration ttl) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException(".max-bytes: must be 1 to " + Long.MAX_VALUE + " bytes, e.g. 16M; was " + maxBytes);
        }
        if (ttl.isNegative() || ttl.isZero() || ttl.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException(".ttl: must be more than 0 and at most 1 h, e.g. 1s; was " + ttl);
        }
    }

    /**
     * @param maxBytes the most heap its copies take, at least 1
     * @param ttl      how long a copy serves after it was received, more than 0
     * @param hot      which keys are hot here
     * @param policy   the rules a copy is kept and served by
     * @param ticker   Caffeine's clock ({@link Ticker#systemTicker()}; a test's own)
     */
    public NearCache(long maxBytes, Duration ttl, HotKeys hot, CachePolicy policy, Ticker ticker) {
        this(maxBytes, ttl, hot, policy, ticker, new PurgeMarks());
    }

    /** As {@link #NearCache(long, Duration, HotKeys, CachePolicy, Ticker)}, purged and fenced by the member's {@code marks}. */
    public NearCache(long maxBytes, Duration ttl, HotKeys hot, CachePolicy policy, Ticker ticker, PurgeMarks marks) {
        check(maxBytes, ttl);
        this.marks = Objects.requireNonNull(marks, "marks");
        this.hot = Objects.requireNonNull(hot, "hot");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.maxBytes = maxBytes;
        this.ttl = ttl;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((String key, Variant copy) -> LocalCache.weigh(key, copy.answer()))
                .expireAfterWrite(ttl)
                .ticker(ticker)
                // eviction and expiry bookkeeping on the calling thread: no pool thread is woken
                .executor(Runnable::run)
                .recordStats()
                .build();
        marks.onFence(cache::invalidateAll);
    }

    /**
     * The near copy of {@code key} that may answer {@code request} at {@code now} (epoch ms), or null:
     * none, past its {@code ttl}, another variant, or not fresh enough for the request.
     */
    public OriginAnswer get(String key, CacheRequest request, long now) {
        marks.awake();
        Variant copy = cache.getIfPresent(key);
        if (copy == null || !policy.matches(copy.answer(), copy.selectors(), request)
                || policy.reuse(copy.answer(), request, now) != CachePolicy.Reuse.FRESH) {
            return null;
        }
        return copy.answer();
    }

    /**
     * An answer another member served for {@code key} to {@code request}: kept (replacing any copy, with
     * a fresh {@code ttl}) when the key is hot here and the policy would store it and serve it now
     * (see the class comment).
     *
     * @return whether it was kept
     */
    public boolean offer(String key, CacheRequest request, OriginAnswer answer, long now) {
        return offer(key, request, answer, now, marks.mark());
    }

    /**
     * {@link #offer(String, CacheRequest, OriginAnswer, long)} of an answer whose forward started at
     * {@code mark} ({@link PurgeMarks#mark()}): not kept where its key or one of its tags was purged since.
     */
    public boolean offer(String key, CacheRequest request, OriginAnswer answer, long now, long mark) {
        if (hot.estimate(key) < hot.minCount() || !policy.storable(request, answer)
                || policy.reuse(answer, request, now) != CachePolicy.Reuse.FRESH
                || marks.purgedSince(mark, key, io.ketama.router.caching.CacheTags.of(answer.headers()))) {
            return false;
        }
        OriginAnswer fit = policy.forStorage(answer); // the owner's client may have had fields the store keeps from others
        HttpFields shared = fit.headers().shared(SharedStrings.FIELDS);
        OriginAnswer kept = shared == fit.headers() ? fit : fit.with(shared, fit.responseTime(), fit.initialAgeMillis());
        Variant copy = new Variant(kept, policy.selectors(kept, request));
        cache.put(key, copy);
        if (marks.purgedSince(mark, key, io.ketama.router.caching.CacheTags.of(kept.headers()))) {
            cache.asMap().remove(key, copy); // a purge began between the first look and the put: it may have missed the copy
            return false;
        }
        return true;
    }

    /** Whether a near copy of {@code key} is held now (whatever requests it may answer); not counted in the statistics. */
    public boolean holds(String key) {
        return cache.asMap().containsKey(key);
    }

    /** Drops the near copy of {@code key} (an unsafe request through this member changed it). */
    public void invalidate(String key) {
        cache.invalidate(key);
    }

    /**
     * Drops the copies of {@code keys} and those tagged with one of {@code tags}; call it after the
     * marks recorded the purge (the local cache's {@link LocalCache#purge} does).
     *
     * @return the copies dropped
     */
    public int purge(Collection<String> keys, Set<String> tags) {
        Map<String, Variant> map = cache.asMap();
        int dropped = 0;
        for (String key : keys) {
            dropped += map.remove(key) == null ? 0 : 1;
        }
        if (!tags.isEmpty()) {
            for (Map.Entry<String, Variant> e : map.entrySet()) {
                if (io.ketama.router.caching.CacheTags.tagged(e.getValue().answer().headers())
                        && io.ketama.router.caching.CacheTags.of(e.getValue().answer().headers()).stream().anyMatch(tags::contains)
                        && map.remove(e.getKey(), e.getValue())) {
                    dropped++;
                }
            }
        }
        return dropped;
    }

    /** Copies held now. */
    public long size() {
        return cache.estimatedSize();
    }

    /** Bytes its copies take now, as its bound counts them. */
    public long weightedBytes() {
        return cache.policy().eviction().map(e -> e.weightedSize().orElse(0L)).orElse(0L);
    }

    public long maxBytes() {
        return maxBytes;
    }

    public Duration ttl() {
        return ttl;
    }

    /** The underlying cache, for metrics binders. */
    public Cache<String, Variant> caffeine() {
        return cache;
    }
}
