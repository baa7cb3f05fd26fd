package io.ketama.router.serving;

/** Turns a raw key (one char per byte) into text that {@link java.net.URI} accepts, changing no valid byte. */
final class RequestTargets {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private RequestTargets() {
    }

    /**
     * Keeps every byte that may appear in a request target as it is (a valid {@code %XX} escape
     * included) and percent-encodes the rest: controls, spaces, non-ASCII bytes, a stray
     * {@code %}, and {@code #}, which would start a fragment.
     */
    static String escape(String key) {
        StringBuilder out = null;
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            boolean keep = allowed(c) || (c == '%' && isHex(key, i + 1) && isHex(key, i + 2));
            if (keep) {
                if (out != null) {
                    out.append(c);
                }
            } else {
                if (out == null) {
                    out = new StringBuilder(key.length() + 16).append(key, 0, i);
                }
                int b = c & 0xFF;
                out.append('%').append(HEX[b >>> 4]).append(HEX[b & 0xF]);
            }
        }
        return out == null ? key : out.toString();
    }

    private static boolean isHex(String s, int i) {
        if (i >= s.length()) {
            return false;
        }
        char c = s.charAt(i);
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** RFC 3986 unreserved, sub-delims, and ':', '@', '/', '?'. */
    private static boolean allowed(char c) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
            return true;
        }
        return "-._~!$&'()*+,;=:@/?".indexOf(c) >= 0;
    }
}
