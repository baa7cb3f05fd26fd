package io.ketama.router.hot;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.caching.OriginAnswer;
import java.time.Duration;
import java.util.Objects;

/**
 * Near copies of hot keys on an entry member: the answers other members sent it for the keys it is
 * asked for most, kept a short while so that their next requests entering here need no hop.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>What may be kept</b>: a plain {@code 200} answer ({@link OriginAnswer#cacheable}) another
 *       member served for a key this member does not own, once {@link HotKeys} counts the key hot here
 *       (at least {@code min-requests} in its window). Never a redirect or another status, a bypass,
 *       nor (the caller's rule) an answer to a request that required features.</li>
 *   <li><b>For how long</b>: {@code ttl} from the moment it was received ({@code expireAfterWrite}), so a
 *       near copy is never more than {@code ttl} older than the answer its owner had when it sent it.
 *       Then the next request goes to the owner again, and its answer, the owner's newest, replaces the
 *       copy with a fresh {@code ttl} (as any later answer for the key does).</li>
 *   <li><b>How much</b>: at most {@code maxBytes} of heap, each entry weighed as the local cache weighs
 *       one ({@link LocalCache#weigh}: key, body, the overhead JOL measured); past it Caffeine's W-TinyLFU
 *       keeps the more frequent keys. Its own bound: the copies do not hold bytes of the body budget,
 *       whose bodies it may share (an answer's body array is never written after it is made).</li>
 * </ul>
 * A lookup ({@link #get}) allocates nothing and takes no lock; an answer is offered
 * ({@link #offer}) after every forward, and only the hot keys' answers are written.
 */
public final class NearCache {

    private final Cache<String, OriginAnswer> cache;
    private final HotKeys hot;
    private final long maxBytes;
    private final Duration ttl;

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
     * @param ticker   Caffeine's clock ({@link Ticker#systemTicker()}; a test's own)
     */
    public NearCache(long maxBytes, Duration ttl, HotKeys hot, Ticker ticker) {
        check(maxBytes, ttl);
        this.hot = Objects.requireNonNull(hot, "hot");
        this.maxBytes = maxBytes;
        this.ttl = ttl;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((String key, OriginAnswer answer) -> LocalCache.weigh(key, answer))
                .expireAfterWrite(ttl)
                .ticker(ticker)
                // eviction and expiry bookkeeping on the calling thread: no pool thread is woken
                .executor(Runnable::run)
                .recordStats()
                .build();
    }

    /** The near copy of {@code key}, or null: none, or past its {@code ttl}. */
    public OriginAnswer get(String key) {
        return cache.getIfPresent(key);
    }

    /**
     * An answer another member served for {@code key}: kept (replacing any copy, with a fresh
     * {@code ttl}) when it may be ({@link OriginAnswer#cacheable}) and the key is hot here.
     *
     * @return whether it was kept
     */
    public boolean offer(String key, OriginAnswer answer) {
        if (answer.status() != 200 || hot.estimate(key) < hot.minCount()) {
            return false;
        }
        cache.put(key, answer);
        return true;
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
    public Cache<String, OriginAnswer> caffeine() {
        return cache;
    }
}
