package io.ketama.router.serving;

import io.ketama.router.caching.CachePolicy;
import io.ketama.router.caching.CacheSettings;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.router.tracing.RouteSpan;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.LongSupplier;

/**
 * Serves keys on the member that holds them (the owner, or the candidate a spill or a failover sent
 * them to), every step decided by the one {@link CachePolicy}: a stored answer the request may have
 * is served at once; a stale one is revalidated with the origin ({@code If-None-Match},
 * {@code If-Modified-Since}; a {@code 304} freshens it), served stale while validated in the
 * background ({@code stale-while-revalidate}), or served stale when the origin fails and nothing
 * forbids it; otherwise the origin is asked, and what it answers is stored when the policy lets it.
 * Plain Java without Quarkus, so any member, a plain Hazelcast member in a test included, serves
 * forwarded keys with it.
 *
 * <p><b>One fetch per key at a time.</b> While a fetch for a key is under way, further requests for
 * it wait for that fetch ({@link LocalCache#lead}), and take its answer only where the cache stored
 * it and it matches their own request by its {@code Vary}: an answer that turns out not to be
 * storable (private, {@code no-store}, {@code Set-Cookie}, another variant) is never handed to them;
 * each goes to the origin itself, as nginx's {@code proxy_cache_lock} and Varnish's hit-for-miss do.
 * A failed fetch stores nothing; who waited for it is served a stale answer where the policy allows,
 * else fails alike. Waiting holds no thread.
 */
public final class KeyServer {

    private final LocalCache cache;
    private final Origin origin;
    private final CachePolicy policy;
    private final String memberAddress;
    private final LongSupplier clock;

    /** A key server under the default policy ({@link CacheSettings#defaults}). */
    public KeyServer(LocalCache cache, Origin origin, String memberAddress) {
        this(cache, origin, new CachePolicy(CacheSettings.defaults()), memberAddress, System::currentTimeMillis);
    }

    /**
     * @param origin        where answers come from; give it a bound ({@link BoundedOrigin}) so this
     *                      member's own work cannot pile up
     * @param policy        the rules every decision follows
     * @param memberAddress this member's {@code host:port}, reported as the server of every answer
     * @param clock         epoch milliseconds ({@code System::currentTimeMillis}; a test's own)
     */
    public KeyServer(LocalCache cache, Origin origin, CachePolicy policy, String memberAddress, LongSupplier clock) {
        this.cache = Objects.requireNonNull(cache, "cache");
        this.origin = Objects.requireNonNull(origin, "origin");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.memberAddress = Objects.requireNonNull(memberAddress, "memberAddress");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * A stored answer this member serves at once for {@code request}, without asking anyone: fresh,
     * or stale where the request allows it ({@code max-stale}); null otherwise (not stored, another
     * variant, or it needs the origin first). No I/O, no allocation beyond the answer's wrapper.
     */
    public Served hit(KeyRequest request) {
        Variants variants = cache.variants(request.key());
        if (variants == null) {
            return null;
        }
        Variant v = variants.select(request.request(), policy);
        if (v == null) {
            return null;
        }
        return switch (policy.reuse(v.answer(), request.request(), clock.getAsLong())) {
            case FRESH -> new Served(v.answer(), CacheStatus.HIT, memberAddress);
            case STALE_ALLOWED -> new Served(v.answer(), CacheStatus.STALE, memberAddress);
            default -> null;
        };
    }

    /** {@link #hit(KeyRequest)} of a plain {@code GET} of {@code key} ({@link KeyRequest#of}). */
    public Served hit(String key) {
        return hit(KeyRequest.of(key));
    }

    /** {@link #serve(KeyRequest, RouteSpan)} of a plain {@code GET} of {@code key}, untraced. */
    public CompletionStage<Served> serve(String key) {
        return serve(KeyRequest.of(key), null);
    }

    /** {@link #serve(KeyRequest, RouteSpan)} of a plain {@code GET} of {@code key}. */
    public CompletionStage<Served> serve(String key, RouteSpan span) {
        return serve(KeyRequest.of(key), span);
    }

    /**
     * Serves {@code request} as the key's holder: from the store, after a revalidation, or from the
     * origin, as the policy decides (see the class comment).
     *
     * @param span where not null (tracing on), an origin fetch is a child span of it
     * @return completed exceptionally with {@link OriginUnavailableException} when the origin gave
     *         no answer and no stale answer may stand in, {@link OverloadedException} when this member
     *         has no room for another origin fetch or for its body ({@link BodyBudget}), or
     *         {@link NotCachedException} for an {@code only-if-cached} request it holds nothing for
     */
    public CompletionStage<Served> serve(KeyRequest request, RouteSpan span) {
        Variants variants = cache.variants(request.key());
        Variant v = variants == null ? null : variants.select(request.request(), policy);
        if (v != null) {
            switch (policy.reuse(v.answer(), request.request(), clock.getAsLong())) {
                case FRESH:
                    return done(v.answer(), CacheStatus.HIT);
                case STALE_ALLOWED:
                    return done(v.answer(), CacheStatus.STALE);
                case STALE_WHILE_REVALIDATE:
                    fetch(request, v, true, null); // one background validation: joins one under way
                    return done(v.answer(), CacheStatus.STALE);
                case VALIDATE:
                    return notCachedOr(request, () -> fetch(request, v, true, span));
                case FETCH:
                default:
                    return notCachedOr(request, () -> fetch(request, v, false, span));
            }
        }
        return notCachedOr(request, () -> fetch(request, null, false, span));
    }

    private CompletionStage<Served> notCachedOr(KeyRequest request, java.util.function.Supplier<CompletionStage<Served>> fetch) {
        if (policy.onlyIfCached(request.request())) {
            return CompletableFuture.failedFuture(new NotCachedException("the request says only-if-cached and member "
                    + memberAddress + " holds no stored answer it may use for it"));
        }
        return fetch.get();
    }

    /**
     * Asks the origin for {@code request} without reading or filling the cache: for a member that does
     * not hold the key and could reach none that does.
     *
     * @return completed exceptionally as {@link #serve}
     */
    public CompletionStage<Served> bypass(KeyRequest request, RouteSpan span) {
        return fetchFromOrigin(OriginRequest.get(request.target(), policy.originRequest(request.request(), null)), span)
                .thenApply(answer -> new Served(answer, CacheStatus.BYPASS, memberAddress));
    }

    /** {@link #bypass(KeyRequest, RouteSpan)} of a plain {@code GET} of {@code key}. */
    public CompletionStage<Served> bypass(String key, RouteSpan span) {
        return bypass(KeyRequest.of(key), span);
    }

    /** {@link #bypass(KeyRequest, RouteSpan)} of a plain {@code GET} of {@code key}, untraced. */
    public CompletionStage<Served> bypass(String key) {
        return bypass(key, null);
    }

    /** Drops every stored answer of {@code key} (RFC 9111 §4.4: an unsafe request changed it). */
    public void invalidate(String key) {
        cache.invalidate(key);
    }

    /**
     * Drops every stored answer of {@code keys} and every one tagged with one of {@code tags}.
     *
     * @return the stored answers dropped
     */
    public int purge(java.util.Collection<String> keys, java.util.Set<String> tags) {
        return cache.purge(keys, tags);
    }

    private CompletionStage<Served> done(OriginAnswer answer, CacheStatus status) {
        return CompletableFuture.completedFuture(new Served(answer, status, memberAddress));
    }

    /**
     * Fetches {@code request} for the cache, leading the key's fetch or waiting for the one under way.
     *
     * @param stored      the stored variant the request selected (null: none): validated when
     *                    {@code conditional}, and served stale where the origin fails and the policy allows
     * @param conditional whether to ask the origin conditionally with {@code stored}'s validators
     */
    private CompletionStage<Served> fetch(KeyRequest request, Variant stored, boolean conditional, RouteSpan span) {
        CompletableFuture<LocalCache.Fetched> mine = new CompletableFuture<>();
        long mark = cache.marks().mark(); // before the origin is asked: an answer a purge overtakes is stored nowhere
        CompletableFuture<LocalCache.Fetched> underWay = cache.lead(request.key(), mine);
        if (underWay != null) {
            return underWay.handle((fetched, failure) -> waited(request, stored, fetched, failure, span, mark)).thenCompose(s -> s);
        }
        // the leader's client hears the origin's interim answers (103 Early Hints); a waiter's never does
        OriginRequest asked = OriginRequest.get(request.target(), policy.originRequest(request.request(),
                conditional ? stored.answer() : null)).hearing(request.interim());
        CompletionStage<OriginAnswer> answer;
        try {
            answer = fetchFromOrigin(asked, span);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        return answer.handle((received, failure) -> {
            Throwable error = null;
            LocalCache.Fetched outcome = null;
            Served served = null;
            try {
                if (failure != null) {
                    if (staleOnError(request, stored, mark)) {
                        outcome = new LocalCache.Fetched(stored.answer(), CacheStatus.STALE, true, stored);
                        served = new Served(stored.answer(), CacheStatus.STALE, memberAddress);
                    } else {
                        error = Failures.cause(failure);
                    }
                } else if (received.status() == 304 && conditional) {
                    OriginAnswer freshened = policy.forStorage(policy.freshen(stored.answer(), received));
                    boolean kept = cache.replace(request.key(), stored, freshened, request.request(), policy, mark);
                    outcome = new LocalCache.Fetched(freshened, CacheStatus.REVALIDATED, kept, kept ? new Variant(freshened, stored.selectors()) : null);
                    served = new Served(freshened, CacheStatus.REVALIDATED, memberAddress);
                } else if (failedStatus(received.status()) && staleOnError(request, stored, mark)) {
                    outcome = new LocalCache.Fetched(stored.answer(), CacheStatus.STALE, true, stored);
                    served = new Served(stored.answer(), CacheStatus.STALE, memberAddress);
                } else {
                    outcome = stored(request, received, mark);
                    // the fields a qualified private/no-cache names are kept from the store, not from this client (§5.2.2.4, §5.2.2.7)
                    served = new Served(received, CacheStatus.MISS, memberAddress);
                }
            } catch (RuntimeException e) {
                error = e;
            }
            cache.finish(request.key(), mine, outcome, error);
            if (error != null) {
                throw error instanceof CompletionException c ? c : new CompletionException(error);
            }
            return served;
        });
    }

    /** {@code received} stored for {@code request} where the policy lets it and it is worth it, as a fetch's waiters read it. */
    private LocalCache.Fetched stored(KeyRequest request, OriginAnswer received, long mark) {
        if (!policy.storable(request.request(), received) || !policy.worthKeeping(received, clock.getAsLong())) {
            return new LocalCache.Fetched(received, CacheStatus.MISS, false, null);
        }
        OriginAnswer kept = policy.forStorage(received);
        String[] selectors = policy.selectors(kept, request.request());
        if (!cache.store(request.key(), kept, selectors, request.request(), policy, mark)) {
            return new LocalCache.Fetched(received, CacheStatus.MISS, false, null); // purged while it was fetched
        }
        return new LocalCache.Fetched(kept, CacheStatus.MISS, true, new Variant(kept, selectors));
    }

    /**
     * A request that waited for another's fetch of its key: it takes the answer only where the cache
     * stored it and it matches its own request; otherwise it asks the origin itself, alone.
     */
    private CompletionStage<Served> waited(KeyRequest request, Variant stored, LocalCache.Fetched fetched, Throwable failure,
                                           RouteSpan span, long mark) {
        if (failure != null) {
            if (staleOnError(request, stored, mark)) {
                return done(stored.answer(), CacheStatus.STALE);
            }
            return CompletableFuture.failedFuture(Failures.cause(failure));
        }
        if (fetched.stored() && policy.matches(fetched.answer(), fetched.variant().selectors(), request.request())) {
            return done(fetched.answer(), fetched.status());
        }
        OriginRequest asked = OriginRequest.get(request.target(), policy.originRequest(request.request(), null));
        return fetchFromOrigin(asked, span).thenApply(received -> {
            stored(request, received, mark);
            return new Served(received, CacheStatus.MISS, memberAddress);
        });
    }

    /** Whether {@code stored} may stand in for an origin that failed: the policy allows it, and no purge took it since {@code mark}. */
    private boolean staleOnError(KeyRequest request, Variant stored, long mark) {
        return stored != null && policy.staleOnError(stored.answer(), request.request(), clock.getAsLong())
                && !cache.marks().purgedSince(mark, request.key(), io.ketama.router.caching.CacheTags.of(stored.answer().headers()));
    }

    /** Whether the origin answered with the failure a stale answer may stand in for (RFC 5861 §4). */
    private static boolean failedStatus(int status) {
        return status == 500 || status == 502 || status == 503 || status == 504;
    }

    /** The origin's answer to {@code request}, as a child span of {@code span} where it is not null. */
    private CompletionStage<OriginAnswer> fetchFromOrigin(OriginRequest request, RouteSpan span) {
        if (span == null) {
            return origin.fetch(request);
        }
        RouteSpan fetch = span.originFetch(request.target());
        CompletionStage<OriginAnswer> answer;
        try {
            answer = origin.fetch(request);
        } catch (RuntimeException e) {
            fetch.fail(e);
            throw e;
        }
        return answer.whenComplete((a, failure) -> {
            if (failure != null) {
                fetch.fail(failure);
            } else {
                fetch.end();
            }
        });
    }

    public LocalCache cache() {
        return cache;
    }

    public CachePolicy policy() {
        return policy;
    }

    public String memberAddress() {
        return memberAddress;
    }
}
