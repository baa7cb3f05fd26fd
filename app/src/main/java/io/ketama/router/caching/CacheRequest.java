package io.ketama.router.caching;

import java.util.Objects;

/**
 * What the cache reads of one request: its method and its end-to-end header fields (the client's,
 * as the entry member received them, less the hop-by-hop ones). The same on every member that
 * handles the request: the entry member forwards exactly these fields to the key's owner.
 */
public final class CacheRequest {

    private final String method;
    private final HttpFields headers;
    /** What {@code CachePolicy} read of the headers, made once on first use (a benign race: always the same value). */
    Object directives;

    /**
     * @param method  the request method as sent (case-sensitive, RFC 9110 §9.1)
     * @param headers its end-to-end header fields
     */
    public CacheRequest(String method, HttpFields headers) {
        this.method = Objects.requireNonNull(method, "method");
        this.headers = Objects.requireNonNull(headers, "headers");
    }

    /** A {@code GET} with {@code headers}. */
    public static CacheRequest get(HttpFields headers) {
        return new CacheRequest("GET", headers);
    }

    public String method() {
        return method;
    }

    public HttpFields headers() {
        return headers;
    }

    @Override
    public String toString() {
        return method + " " + headers;
    }
}
