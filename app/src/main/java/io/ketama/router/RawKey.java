package io.ketama.router;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;

/**
 * A cache key: the raw request target after a route prefix such as {@code /cache/}, query string
 * included, byte for byte, never decoded (nginx's {@code $request_uri}). Held as text with one
 * char per byte (ISO-8859-1), which is how the HTTP server reads the request line, so
 * {@link #bytes()} gives back exactly the bytes the client sent.
 *
 * @param text the key, one char (0–255) per byte
 */
record RawKey(String text) {

    /** The longest key accepted, in bytes (8 KiB). */
    static final int MAX_BYTES = 8192;

    RawKey {
        Objects.requireNonNull(text, "text");
    }

    /**
     * The key in a raw request target ({@code uri()} of the request: origin form, or absolute form
     * such as {@code http://host/cache/k}).
     *
     * @param prefix the route, with both slashes, e.g. {@code /cache/}
     * @throws ProblemException for an empty key, a key over {@value #MAX_BYTES} bytes, or a target
     *                          that does not start with {@code prefix} literally (say, an escaped letter)
     */
    static RawKey fromRequestTarget(String requestTarget, String prefix) {
        String target = originForm(requestTarget == null ? "" : requestTarget);
        if (!target.startsWith(prefix)) {
            String bare = prefix.substring(0, prefix.length() - 1);
            if (target.equals(bare) || target.startsWith(bare + "?")) {
                throw empty(prefix);
            }
            throw new ProblemException(ProblemType.BAD_REQUEST_TARGET, "the key is the raw request target after '" + prefix
                    + "', which must start with '" + prefix + "' exactly as written (no escaped letters, no dot segments before it)");
        }
        String key = target.substring(prefix.length());
        if (key.isEmpty()) {
            throw empty(prefix);
        }
        return checked(key);
    }

    /**
     * {@code key} as a key, checked.
     *
     * @throws ProblemException for a key over {@value #MAX_BYTES} bytes or with a char past one byte
     */
    static RawKey checked(String key) {
        if (key.length() > MAX_BYTES) {
            throw new ProblemException(ProblemType.KEY_TOO_LONG, "the key is " + key.length() + " bytes long; at most "
                    + MAX_BYTES + " bytes (8 KiB) are allowed");
        }
        for (int i = 0; i < key.length(); i++) {
            if (key.charAt(i) > 0xFF) {
                throw new ProblemException(ProblemType.BAD_REQUEST_TARGET, "the request target holds a character beyond one byte at offset "
                        + i + "; keys are raw bytes");
            }
        }
        return new RawKey(key);
    }

    private static ProblemException empty(String prefix) {
        return new ProblemException(ProblemType.EMPTY_KEY, "the key is empty: give it after '" + prefix
                + "', e.g. " + prefix + "images/logo.png?width=200 (1 to " + MAX_BYTES + " bytes, taken as sent, query included)");
    }

    /** Drops {@code scheme://authority} from an absolute-form target. */
    static String originForm(String target) {
        if (target.startsWith("/")) {
            return target; // the usual origin form: nothing to drop
        }
        String lower = target.length() > 8 ? target.substring(0, 8).toLowerCase(Locale.ROOT) : target.toLowerCase(Locale.ROOT);
        int schemeEnd = lower.startsWith("http://") ? 7 : lower.startsWith("https://") ? 8 : -1;
        if (schemeEnd < 0) {
            return target;
        }
        int slash = target.indexOf('/', schemeEnd);
        return slash < 0 ? "/" : target.substring(slash);
    }

    /** The key's bytes exactly as the client sent them. */
    byte[] bytes() {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    int length() {
        return text.length();
    }

    /** The key for JSON answers: its bytes read as UTF-8 where they are valid, else U+FFFD. */
    String display() {
        return new String(bytes(), StandardCharsets.UTF_8);
    }
}
