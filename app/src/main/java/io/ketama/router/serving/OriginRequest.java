package io.ketama.router.serving;

import io.ketama.router.caching.HttpFields;
import java.util.Objects;
import java.util.function.Consumer;

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
 * @param interim told of each interim answer ({@code 103 Early Hints}) the origin sends before its
 *                final one, with that answer's fields; null: nobody listens
 */
public record OriginRequest(String method, String target, HttpFields headers, byte[] body, Consumer<HttpFields> interim) {

    private static final byte[] NONE = new byte[0];

    public OriginRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(headers, "headers");
        body = body == null ? NONE : body;
    }

    /** A request nobody hears interim answers of. */
    public OriginRequest(String method, String target, HttpFields headers, byte[] body) {
        this(method, target, headers, body, null);
    }

    /** A {@code GET} of {@code target} with {@code headers}. */
    public static OriginRequest get(String target, HttpFields headers) {
        return new OriginRequest("GET", target, headers, NONE, null);
    }

    /** This request, its interim answers told to {@code interim} (null: nobody). */
    public OriginRequest hearing(Consumer<HttpFields> interim) {
        return new OriginRequest(method, target, headers, body, interim);
    }

    @Override
    public String toString() {
        return method + " " + target + " " + headers + (body.length == 0 ? "" : " + " + body.length + " bytes");
    }
}
