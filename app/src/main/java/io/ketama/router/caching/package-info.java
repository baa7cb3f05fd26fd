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
 */
package io.ketama.router.caching;
