package io.ketama.router.forwarding.http;

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
 * forward or answer as its own.
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
