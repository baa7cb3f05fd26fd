package io.ketama.router.serving;

import io.ketama.router.caching.HttpFields;
import java.util.Objects;

/**
 * One request to the origin: the method, the request target below the origin's base URL, the
 * header fields to send (end-to-end ones, already chosen by whoever asks: the cache's for a fetch
 * it makes, the client's for a request passed through), and a body where the method carries one.
 *
 * @param method  the method as the client sent it (case-sensitive)
 * @param target  the request target below the base URL: a path starting with {@code /}, query
 *                included, one char per byte as received
 * @param headers the fields to send; {@code Host}, {@code Content-Length} and {@code Via} are the
 *                origin's to add
 * @param body    the request's body; empty for none
 */
public record OriginRequest(String method, String target, HttpFields headers, byte[] body) {

    private static final byte[] NONE = new byte[0];

    public OriginRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(headers, "headers");
        body = body == null ? NONE : body;
    }

    /** A {@code GET} of {@code target} with {@code headers}. */
    public static OriginRequest get(String target, HttpFields headers) {
        return new OriginRequest("GET", target, headers, NONE);
    }

    @Override
    public String toString() {
        return method + " " + target + " " + headers + (body.length == 0 ? "" : " + " + body.length + " bytes");
    }
}
