package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

/**
 * One stored answer of a key, with the values its {@code Vary} selected it by (RFC 9111 §4.1).
 *
 * @param answer      the stored answer
 * @param selectors   the storing request's values of the fields the answer's {@code Vary} names
 *                    ({@link io.ketama.router.caching.CachePolicy#selectors}); null without {@code Vary}
 * @param usefulUntil epoch ms after which it is of no use at all (not fresh, not servable stale, not worth validating)
 */
public record Variant(OriginAnswer answer, String[] selectors, long usefulUntil) {

    /** A variant of no fixed end of use (its owner computes it when it stores it). */
    public Variant(OriginAnswer answer, String[] selectors) {
        this(answer, selectors, Long.MAX_VALUE);
    }

    Variant until(long usefulUntil) {
        return new Variant(answer, selectors, usefulUntil);
    }
}
