package io.ketama.router.serving;

import java.util.Objects;

/**
 * A served key: the answer, how it was obtained and by which member.
 *
 * @param answer   the origin's answer (from cache or fresh)
 * @param cache    hit, miss or bypass
 * @param servedBy the serving member's address as {@code host:port}
 */
public record Served(OriginAnswer answer, CacheStatus cache, String servedBy) {

    public Served {
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(cache, "cache");
        Objects.requireNonNull(servedBy, "servedBy");
    }
}
