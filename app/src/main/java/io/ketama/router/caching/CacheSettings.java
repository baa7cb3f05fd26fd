package io.ketama.router.caching;

import java.util.List;
import java.util.Objects;

/**
 * What an operator may tune of the caching rules; everything else is RFC 9111's.
 *
 * @param defaultTtlMillis   the freshness lifetime of a response that gives none and has no
 *                           {@code Last-Modified} to base a heuristic on, where RFC 9111 §4.2.2 allows a
 *                           heuristic at all (a heuristically cacheable status, or {@code public}); 0 for none
 * @param heuristicPercent   the heuristic lifetime as a percentage of the time since {@code Last-Modified}
 *                           (§4.2.2 suggests 10), 0 to 100
 * @param heuristicMaxMillis the longest heuristic lifetime
 * @param storeSetCookie     whether a response with {@code Set-Cookie} may be stored (and then served, cookie
 *                           and all, to every client); off by default, since a shared cache that replays one
 *                           user's session cookie to another is the classic caching leak
 * @param staleIfErrorMillis how long past its freshness a response may still be served when the origin fails
 *                           and neither response nor request says otherwise (RFC 5861 §4 lets the response say)
 * @param maxVaryFields      the most distinct fields a {@code Vary} may name for the response to be stored, 0 to 1024
 * @param targetedFields     the targeted cache-control fields this cache obeys (RFC 9213), first valid one wins
 */
public record CacheSettings(long defaultTtlMillis, int heuristicPercent, long heuristicMaxMillis, boolean storeSetCookie,
                            long staleIfErrorMillis, int maxVaryFields, List<String> targetedFields) {

    /**
     * @throws IllegalArgumentException naming the component and its range when one is out of range
     * @throws NullPointerException     when {@code targetedFields} or one of its names is null
     */
    public CacheSettings {
        atLeastZero("defaultTtlMillis", defaultTtlMillis);
        if (heuristicPercent < 0 || heuristicPercent > 100) {
            throw new IllegalArgumentException("heuristicPercent is 0 to 100, was " + heuristicPercent);
        }
        atLeastZero("heuristicMaxMillis", heuristicMaxMillis);
        atLeastZero("staleIfErrorMillis", staleIfErrorMillis);
        if (maxVaryFields < 0 || maxVaryFields > 1024) {
            throw new IllegalArgumentException("maxVaryFields is 0 to 1024, was " + maxVaryFields);
        }
        targetedFields = List.copyOf(Objects.requireNonNull(targetedFields, "targetedFields"));
        for (String name : targetedFields) {
            if (!FieldLists.isToken(name)) {
                throw new IllegalArgumentException("targetedFields are field names (tokens), was \"" + name + "\"");
            }
        }
    }

    private static void atLeastZero(String component, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(component + " is 0 to " + Long.MAX_VALUE + ", was " + value);
        }
    }

    /**
     * No default lifetime, heuristics at 10 % of the time since {@code Last-Modified} up to a day, no
     * {@code Set-Cookie} stored, a minute of stale-if-error, at most 16 {@code Vary} fields, and
     * {@code CDN-Cache-Control} obeyed.
     */
    public static CacheSettings defaults() {
        return new CacheSettings(0, 10, 86_400_000L, false, 60_000L, 16, List.of("CDN-Cache-Control"));
    }
}
