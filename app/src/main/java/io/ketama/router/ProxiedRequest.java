package io.ketama.router;

import io.ketama.router.caching.CacheRequest;
import io.ketama.router.serving.KeyRequest;
import java.util.List;

/**
 * A request entering this member as the proxy reads it ({@link RequestReader}).
 *
 * @param mount    how it entered
 * @param key      its cache key ({@code ketama.router.cache.key}), which the ring places
 * @param target   the request target below the origin's base URL, starting with {@code /}
 * @param request  its method and the end-to-end fields sent on (the client's, less this service's own
 *                 and those it strips, {@code ketama.router.proxy.strip-request-fields})
 * @param features the values of its {@code X-Ketama-Features} fields, possibly none
 * @param scheme   {@code http} or {@code https}, as it came
 * @param host     its {@code Host} field, or null
 */
record ProxiedRequest(Mount mount, RawKey key, String target, CacheRequest request, List<String> features, String scheme,
                      String host) {

    /** What the key's holder reads of it. */
    KeyRequest keyRequest() {
        return keyRequest(null);
    }

    /**
     * What the key's holder reads of it, the origin's interim answers told to {@code interim} where the
     * fetch is made here. A {@code HEAD} is asked as the {@code GET} it is served as (the holder
     * fetches, stores and selects as for a {@code GET}; the answer loses its body only here).
     */
    KeyRequest keyRequest(java.util.function.Consumer<io.ketama.router.caching.HttpFields> interim) {
        CacheRequest asked = request.method().equals("HEAD") ? CacheRequest.get(request.headers()) : request;
        return new KeyRequest(key.text(), target, asked, interim);
    }
}
