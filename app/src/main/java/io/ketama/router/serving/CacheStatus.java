package io.ketama.router.serving;

/** How the member that served a key came by the answer. */
public enum CacheStatus {
    /** From its local cache. */
    HIT,
    /** From the origin, then cached when cacheable. */
    MISS,
    /** From the origin without touching any cache: the last resort when no candidate member could serve. */
    BYPASS
}
