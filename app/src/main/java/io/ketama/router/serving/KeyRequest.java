package io.ketama.router.serving;

import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.HttpFields;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A request the cache serves, as every member that handles it sees it: the key the ring places and
 * the cache files it under, the target the origin is asked for, and what the cache reads of the
 * client's request (its method and end-to-end fields). The entry member makes it; the channels
 * carry it to the key's owner whole, so the owner selects variants and fetches as the entry member
 * would.
 *
 * @param key     the cache key (by default the request target as the mount sees it, nginx's {@code $request_uri})
 * @param target  the request target below the origin's base URL, starting with {@code /}
 * @param request the method and fields the cache reads
 * @param interim where the client hears interim answers ({@code 103 Early Hints}) of an origin fetch
 *                made for it on the member it entered; null: nobody (never carried to another member)
 */
public record KeyRequest(String key, String target, CacheRequest request, Consumer<HttpFields> interim) {

    public KeyRequest {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(request, "request");
    }

    /** A request whose client hears no interim answers (one another member forwarded, say). */
    public KeyRequest(String key, String target, CacheRequest request) {
        this(key, target, request, null);
    }

    /**
     * A {@code GET} of {@code key} under the {@code /cache/} mount ({@code /<key>} at the origin) with
     * no fields: what a member of channel version 4 or older asks for, which sends nothing but the key.
     */
    public static KeyRequest of(String key) {
        return new KeyRequest(key, "/" + key, CacheRequest.get(HttpFields.EMPTY));
    }
}
