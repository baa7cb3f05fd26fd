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
     * ({@code io.ketama.router.hot.NearCache}). Only ever said to a client: never sent between members
     * (it is last, so no older member's reading of an ordinal meets it).
     */
    NEAR
}
