package io.ketama.load;

/** What one request finally got, as the client saw it. */
enum Outcome {
    /** 200 with {@code X-Ketama-Cache: HIT}: the owner had the object. */
    HIT,
    /** 200 with {@code X-Ketama-Cache: MISS}: the owner fetched it from the origin. */
    MISS,
    /** No usable answer: no connection, a timeout, a status other than 200, or no cache header. */
    ERROR
}
