package io.ketama.router.serving;

import java.util.Objects;

/**
 * Serves keys on one member: from its {@link LocalCache} on a hit, from the {@link Origin} on a
 * miss (then cached). Plain Java, so any Hazelcast member can serve forwarded keys: register it
 * with {@link #registerIn(java.util.concurrent.ConcurrentMap)} in the member's user context and
 * {@link ForwardCall} finds it there.
 */
public final class KeyServer {

    /** The user-context entry under which a member's key server is found. */
    public static final String USER_CONTEXT_KEY = "io.ketama.router.KeyServer";

    private final LocalCache cache;
    private final Origin origin;
    private final String memberAddress;

    /**
     * @param memberAddress this member's {@code host:port}, reported as the server of every answer
     */
    public KeyServer(LocalCache cache, Origin origin, String memberAddress) {
        this.cache = Objects.requireNonNull(cache, "cache");
        this.origin = Objects.requireNonNull(origin, "origin");
        this.memberAddress = Objects.requireNonNull(memberAddress, "memberAddress");
    }

    /** Registers this server in a member's user context ({@code HazelcastInstance.getUserContext()}). */
    public void registerIn(java.util.concurrent.ConcurrentMap<String, Object> userContext) {
        userContext.put(USER_CONTEXT_KEY, this);
    }

    /** Removes this server from a member's user context, if it is the one registered. */
    public void unregisterFrom(java.util.concurrent.ConcurrentMap<String, Object> userContext) {
        userContext.remove(USER_CONTEXT_KEY, this);
    }

    /**
     * Serves {@code key} as its owner: cached answer, or a fresh one from the origin.
     *
     * @throws OriginUnavailableException when the key is not cached and the origin gave no answer
     */
    public Served serve(String key) {
        LocalCache.Lookup lookup = cache.get(key, origin::fetch);
        return new Served(lookup.answer(), lookup.status(), memberAddress);
    }

    /**
     * Fetches {@code key} from the origin without reading or filling the cache: for a member that
     * does not own the key and could reach none that does.
     *
     * @throws OriginUnavailableException when the origin gave no answer
     */
    public Served bypass(String key) {
        return new Served(origin.fetch(key), CacheStatus.BYPASS, memberAddress);
    }

    public LocalCache cache() {
        return cache;
    }

    public String memberAddress() {
        return memberAddress;
    }
}
