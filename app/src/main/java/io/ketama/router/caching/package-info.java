/**
 * The rules of HTTP caching for a shared cache (RFC 9111, with RFC 9110's conditional requests and
 * ranges, RFC 5861's stale content and RFC 9213's targeted fields), in pure Java: no Vert.x, no
 * Hazelcast, no CDI. What an answer and a request are to the cache ({@code OriginAnswer},
 * {@code CacheRequest}, {@code HttpFields}), and the one policy that decides, for every member that
 * holds a copy of an answer (the owner, a spill candidate, a near copy), whether it may be stored,
 * served, or must be validated first.
 *
 * <p>Public: {@code CachePolicy} (every decision), {@code CacheSettings} (what an operator may tune),
 * {@code HttpDates} and {@code ByteRange}. Everything else is package-private and one rule each:
 * reading directives ({@code CacheControlParser}, {@code TargetedFields} over
 * {@code StructuredDictionary}), what is read once per answer and request ({@code AnswerFacts},
 * {@code RequestFacts}), freshness and age ({@code Freshness}, {@code Ages}), storing
 * ({@code Storability}, {@code StoredFields}), variants ({@code VaryFields}), validation
 * ({@code Validation}, {@code Preconditions}, {@code EntityTags}) and ranges ({@code Ranges}).
 *
 * <p>Written here rather than taken from a library, after looking at the two that fit the stack.
 * Apache HttpClient 5's cache ({@code httpclient5-cache} 5.4) has the rules, but as package-private
 * classes of {@code org.apache.hc.client5.http.impl.cache} ({@code ResponseCachingPolicy},
 * {@code CachedResponseSuitabilityChecker}, {@code CacheValidityPolicy}) behind its client's execution
 * chain, over its own request, response and entry types: using them means its client in front of the
 * origin and a conversion of every answer to and from its entries, which the member channels would then
 * carry. Vert.x's {@code vertx-http-proxy} (4.5) caches in an internal filter
 * ({@code io.vertx.httpproxy.impl.CachingFilter}) that reads {@code max-age} and {@code public} only, by
 * URI, with no {@code Vary}. The policy here is one immutable object over plain values, called where a
 * copy is held (an owner, a spill candidate, a near copy), so every member applies the same rules to
 * what the channels carry.
 */
package io.ketama.router.caching;
