package io.ketama.load;

/** What one request finally got, as the client saw it. */
enum Outcome {
    /** 200 with {@code X-Ketama-Cache: HIT}: the owner had the object. */
    HIT,
    /** 200 with {@code X-Ketama-Cache: MISS}: the owner fetched it from the origin. */
    MISS,
    /**
     * 200 with {@code X-Ketama-Cache: BYPASS}: every candidate member failed, so the member asked
     * fetched from the origin itself without caching. Counts against the hit ratio, like a miss.
     */
    BYPASS,
    /** No usable answer: no connection, a timeout, a status other than 200, or no cache header. */
    ERROR
}
