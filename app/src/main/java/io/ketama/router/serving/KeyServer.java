package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * Serves keys on one member: from its {@link LocalCache} on a hit, from the {@link Origin} on a
 * miss (then cached), one origin fetch per key at a time. Plain Java without Quarkus, so any
 * member, a plain Hazelcast member in a test included, serves forwarded keys with it.
 */
public final class KeyServer {

    private final LocalCache cache;
    private final Origin origin;
    private final String memberAddress;

    /**
     * @param origin        where misses are fetched; give it a bound ({@link BoundedOrigin}) so
     *                      this member's own work cannot pile up
     * @param memberAddress this member's {@code host:port}, reported as the server of every answer
     */
    public KeyServer(LocalCache cache, Origin origin, String memberAddress) {
        this.cache = Objects.requireNonNull(cache, "cache");
        this.origin = Objects.requireNonNull(origin, "origin");
        this.memberAddress = Objects.requireNonNull(memberAddress, "memberAddress");
    }

    /** The cached answer for {@code key} served by this member, or null when it is not cached. */
    public Served hit(String key) {
        OriginAnswer answer = cache.cached(key);
        return answer == null ? null : new Served(answer, CacheStatus.HIT, memberAddress);
    }

    /**
     * Serves {@code key} as its owner: cached answer, or a fresh one from the origin.
     *
     * @return completed exceptionally with {@link OriginUnavailableException} when the key is not
     *         cached and the origin gave no answer, {@link OverloadedException} when this member
     *         has no room for another origin fetch or for its body ({@link BodyBudget}); either
     *         way nothing is cached and every request waiting for the same fetch gets the failure
     */
    public CompletionStage<Served> serve(String key) {
        return serve(key, null);
    }

    /** As {@link #serve(String)}; where {@code span} is not null (tracing on), an origin fetch is a child span of it. */
    public CompletionStage<Served> serve(String key, io.ketama.router.tracing.RouteSpan span) {
        return cache.get(key, span == null ? origin::fetch : k -> traced(k, span)).thenApply(lookup -> new Served(lookup.answer(), lookup.status(), memberAddress));
    }

    /**
     * Fetches {@code key} from the origin without reading or filling the cache: for a member that
     * does not own the key and could reach none that does.
     *
     * @return completed exceptionally as {@link #serve}
     */
    private CompletionStage<OriginAnswer> traced(String key, io.ketama.router.tracing.RouteSpan span) {
        io.ketama.router.tracing.RouteSpan fetch = span.originFetch(key);
        CompletionStage<OriginAnswer> answer;
        try {
            answer = origin.fetch(key);
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

    public CompletionStage<Served> bypass(String key) {
        return bypass(key, null);
    }

    /** As {@link #bypass(String)}, the fetch a child span of {@code span} where it is not null. */
    public CompletionStage<Served> bypass(String key, io.ketama.router.tracing.RouteSpan span) {
        return (span == null ? origin.fetch(key) : traced(key, span)).thenApply(answer -> new Served(answer, CacheStatus.BYPASS, memberAddress));
    }

    public LocalCache cache() {
        return cache;
    }

    public String memberAddress() {
        return memberAddress;
    }
}
