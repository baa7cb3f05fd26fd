package io.ketama.router.forwarding.http;

import io.ketama.router.caching.HttpFields;
import io.vertx.core.MultiMap;
import java.util.Map;

/**
 * The wire format of the {@code http} transport: {@code GET /_ketama/forward/<key>} on the owner's
 * own HTTP port, the key's bytes percent-encoded (every byte but ASCII letters, digits and
 * {@code -._~}, so the path is a valid URI whatever the key and decodes to the same bytes). The
 * answer is the origin's status, content type and body with {@code X-Ketama-Cache}; a member that
 * could not serve answers 502 or 503 with {@code X-Ketama-Forward-Failure} naming why; where the
 * members share a {@link io.ketama.router.forwarding.channel.ForwardSecret}, a forward without it ({@code X-Ketama-Forward-Secret})
 * gets a 401. Since {@link io.ketama.router.forwarding.channel.ChannelVersion} 2 the forward and its answer carry {@link #VERSION}; since
 * 3 a forward may carry {@link #SPILLABLE}; since 4 the W3C {@link #TRACEPARENT} and {@link #TRACESTATE};
 * a header a member does not know is ignored by it, so a version-1 member reads a version-2
 * forward or answer as its own. Since 5 (HTTP caching) a forward carries the whole request the cache
 * reads: its method ({@link #METHOD}) and origin target ({@link #TARGET}), and the client's end-to-end
 * fields as its own fields; the answer carries the origin's status and end-to-end fields as its own,
 * and its age in ms when sent ({@link #AGE}); {@code DELETE} on the same path drops the key's stored
 * answers ({@code 204}). A member of version 5 sends none of this to an older one: it does not forward
 * to it at all.
 */
public final class HttpForwarding {

    /** Path prefix of forwarded keys on a member's HTTP port. */
    public static final String PREFIX = "/_ketama/forward/";
    static final String CACHE = "X-Ketama-Cache";
    static final String FAILURE = "X-Ketama-Forward-Failure";
    /** The members' {@link io.ketama.router.forwarding.channel.ForwardSecret}, on every forward where they share one. */
    public static final String SECRET = "X-Ketama-Forward-Secret";
    /**
     * The {@link io.ketama.router.forwarding.channel.ChannelVersion} of a forward (what its sender speaks) and of its answer (what the
     * two speak together); absent: version 1.
     */
    static final String VERSION = "X-Ketama-Forward-Version";
    /**
     * Since {@link io.ketama.router.forwarding.channel.ChannelVersion} 3: the forward may be spilled past the owner's bound (answered 503
     * with {@link io.ketama.router.forwarding.channel.RemoteFailure#SPILLED}); sent only to a member that publishes version 3 or later, and
     * heeded only with a {@link #VERSION} of 3 or later (a version-2 member ignores it and serves).
     */
    static final String SPILLABLE = "X-Ketama-Forward-Spillable";
    /** Since {@link io.ketama.router.forwarding.channel.ChannelVersion} 4, on a traced forward to a member that publishes 4 or later: the W3C headers. */
    static final String TRACEPARENT = "traceparent";
    static final String TRACESTATE = "tracestate";
    /** Since 5: the method the client asked with ({@code GET}, {@code HEAD}). */
    static final String METHOD = "X-Ketama-Forward-Method";
    /** Since 5: the request target below the origin's base URL, as the entry member read it. */
    static final String TARGET = "X-Ketama-Forward-Target";
    /** Since 5, on an answer: its age in ms when the owner sent it. */
    static final String AGE = "X-Ketama-Forward-Age";
    /** Fields of the forward's own, never the client's or the answer's: this channel's names, and what HTTP itself adds. */
    private static final String CONTROL_PREFIX = "X-Ketama-";

    /**
     * The fields of a forward request or answer that belong to the client's request or the origin's
     * answer: all but this channel's own ({@code X-Ketama-*}), the W3C trace fields where the forward
     * carried a trace ({@code traced}), {@code Host}, {@code Content-Length} and the hop-by-hop ones.
     */
    static HttpFields carried(MultiMap headers, boolean traced) {
        HttpFields.Builder b = HttpFields.builder(headers.size());
        for (Map.Entry<String, String> field : headers) {
            String name = field.getKey();
            if (name.regionMatches(true, 0, CONTROL_PREFIX, 0, CONTROL_PREFIX.length())
                    || HttpFields.sameName(name, "Host")
                    || HttpFields.sameName(name, "Content-Length")
                    || (traced && (HttpFields.sameName(name, TRACEPARENT)
                    || HttpFields.sameName(name, TRACESTATE)))) {
                continue;
            }
            b.add(name, field.getValue());
        }
        return b.build().endToEnd();
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private HttpForwarding() {
    }

    /** The request target for {@code key} (one char per byte). */
    public static String target(String key) {
        StringBuilder out = new StringBuilder(PREFIX.length() + key.length() + 16).append(PREFIX);
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
                    || c == '_' || c == '~') {
                out.append(c);
            } else {
                int b = c & 0xFF;
                out.append('%').append(HEX[b >>> 4]).append(HEX[b & 0xF]);
            }
        }
        return out.toString();
    }

    /**
     * The key of a request target made by {@link #target}.
     *
     * @throws IllegalArgumentException when it is not one
     */
    static String key(String uri) {
        if (!uri.startsWith(PREFIX) || uri.length() == PREFIX.length()) {
            throw new IllegalArgumentException("not a forwarded key: " + uri);
        }
        StringBuilder key = new StringBuilder(uri.length() - PREFIX.length());
        for (int i = PREFIX.length(); i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c == '%') {
                if (i + 2 >= uri.length()) {
                    throw new IllegalArgumentException("a '%' must be followed by two hex digits");
                }
                int hi = Character.digit(uri.charAt(i + 1), 16);
                int lo = Character.digit(uri.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("a '%' must be followed by two hex digits");
                }
                key.append((char) (hi << 4 | lo));
                i += 2;
            } else {
                key.append(c);
            }
        }
        return key.toString();
    }
}
