package io.ketama.router.caching;

import java.util.List;

/**
 * The cache directives of one message (RFC 9111 §5.2, with {@code stale-while-revalidate} and
 * {@code stale-if-error} of RFC 5861), read once: request and response directives share the syntax, so
 * one value holds both kinds and each reader looks at its own.
 *
 * <p>Seconds are {@link DeltaSeconds#ABSENT} when the directive is not there. {@code max-age} and
 * {@code s-maxage} with a value that is not delta-seconds are 0: RFC 9111 §4.2.1 has a cache treat
 * such a response as stale rather than fall back to heuristics. {@code max-stale} without a value is
 * {@link #ANY_STALENESS}. The qualified forms of {@code no-cache} and {@code private} keep their field
 * names apart from the unqualified flags, since they mean something else (§5.2.2.4, §5.2.2.7).
 *
 * @param maxAge               {@code max-age}, seconds
 * @param sMaxage              {@code s-maxage}, seconds
 * @param noStore              {@code no-store}
 * @param noCache              unqualified {@code no-cache}: reuse only after validation
 * @param noCacheFields        the field names of a qualified {@code no-cache="..."}; empty when none
 * @param isPrivate            unqualified {@code private}: a shared cache must not store it
 * @param privateFields        the field names of a qualified {@code private="..."}; empty when none
 * @param isPublic             {@code public}
 * @param mustRevalidate       {@code must-revalidate}
 * @param proxyRevalidate      {@code proxy-revalidate}
 * @param mustUnderstand       {@code must-understand}
 * @param staleWhileRevalidate {@code stale-while-revalidate}, seconds
 * @param staleIfError         {@code stale-if-error}, seconds
 * @param maxStale             request {@code max-stale}, seconds
 * @param minFresh             request {@code min-fresh}, seconds
 * @param onlyIfCached         request {@code only-if-cached}
 */
record CacheControl(long maxAge, long sMaxage, boolean noStore, boolean noCache, List<String> noCacheFields, boolean isPrivate,
                    List<String> privateFields, boolean isPublic, boolean mustRevalidate, boolean proxyRevalidate,
                    boolean mustUnderstand, long staleWhileRevalidate, long staleIfError, long maxStale, long minFresh,
                    boolean onlyIfCached) {

    /** {@code max-stale} with no value: any staleness is acceptable. */
    static final long ANY_STALENESS = Long.MAX_VALUE;

    /** No directive at all. */
    static final CacheControl NONE = new Builder().build();

    /** Whether it names a freshness lifetime of its own ({@code s-maxage} or {@code max-age}). */
    boolean hasLifetime() {
        return sMaxage >= 0 || maxAge >= 0;
    }

    /**
     * Whether a stale response may never be served without validation (RFC 9111 §4.2.4): must-revalidate,
     * proxy-revalidate and s-maxage (§5.2.2.2, .8, .10 — this cache is shared), and no-cache (§5.2.2.4).
     */
    boolean forbidsStale() {
        return mustRevalidate || proxyRevalidate || sMaxage >= 0 || noCache;
    }

    /** Collects directives; the first occurrence of each wins (RFC 9111 §4.2.1). */
    static final class Builder {
        long maxAge = DeltaSeconds.ABSENT;
        long sMaxage = DeltaSeconds.ABSENT;
        boolean noStore;
        boolean noCache;
        List<String> noCacheFields = List.of();
        boolean isPrivate;
        List<String> privateFields = List.of();
        boolean isPublic;
        boolean mustRevalidate;
        boolean proxyRevalidate;
        boolean mustUnderstand;
        long staleWhileRevalidate = DeltaSeconds.ABSENT;
        long staleIfError = DeltaSeconds.ABSENT;
        long maxStale = DeltaSeconds.ABSENT;
        long minFresh = DeltaSeconds.ABSENT;
        boolean onlyIfCached;

        CacheControl build() {
            return new CacheControl(maxAge, sMaxage, noStore, noCache, noCacheFields, isPrivate, privateFields, isPublic,
                    mustRevalidate, proxyRevalidate, mustUnderstand, staleWhileRevalidate, staleIfError, maxStale, minFresh,
                    onlyIfCached);
        }
    }
}
