package io.ketama.router.serving;

/** How the member that served a key came by the answer. */
public enum CacheStatus {
    /** From its local cache. */
    HIT,
    /** From the origin, then cached when cacheable. */
    MISS,
    /** From the origin without touching any cache: the last resort when no candidate member could serve. */
    BYPASS,
    /**
     * From the near copy the member that took the request keeps of a hot key another member serves
     * ({@code io.ketama.router.hot.NearCache}). Only ever said to a client: never sent between members.
     */
    NEAR,
    /**
     * From its local cache though stale: the request allowed it ({@code max-stale}), the answer
     * allowed it while it is validated in the background ({@code stale-while-revalidate}), or the
     * origin failed and nothing forbade it ({@code stale-if-error}, RFC 9111 §4.2.4). Since channel
     * version 5: an older member is told {@link #HIT}.
     */
    STALE,
    /**
     * From its local cache after the origin confirmed it with a {@code 304} (RFC 9111 §4.3.4). Since
     * channel version 5: an older member is told {@link #HIT}.
     */
    REVALIDATED,
    /**
     * From the origin for a request the cache takes no part in (a method other than {@code GET} and
     * {@code HEAD}, a request that says {@code no-store}): passed through by the member that took it,
     * nothing stored. Only ever said to a client.
     */
    PASS;

    /** This status as a member of channel version 4 or older reads it: one it knows. */
    public CacheStatus asOlderMembersKnowIt() {
        return switch (this) {
            case STALE, REVALIDATED -> HIT;
            case PASS, NEAR -> BYPASS;
            default -> this;
        };
    }
}
