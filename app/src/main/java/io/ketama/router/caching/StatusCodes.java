package io.ketama.router.caching;

/** What a cache must know of status codes (RFC 9110 §15). */
final class StatusCodes {

    private StatusCodes() {
    }

    /** Not an interim (1xx) response: only a final response can be stored (RFC 9111 §3). */
    static boolean isFinal(int status) {
        return status >= 200;
    }

    /**
     * Heuristically cacheable by default (RFC 9110 §15.1): a cache may give these a heuristic freshness
     * lifetime (RFC 9111 §4.2.2) and store them without explicit freshness.
     */
    static boolean isHeuristicallyCacheable(int status) {
        return switch (status) {
            case 200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501 -> true;
            default -> false;
        };
    }

    /**
     * Defined by RFC 9110 §15, whose requirements this cache follows: what {@code must-understand}
     * (RFC 9111 §5.2.2.3) asks a cache to understand before it stores a response.
     */
    static boolean isUnderstood(int status) {
        return switch (status) {
            case 100, 101, 200, 201, 202, 203, 204, 205, 206, 300, 301, 302, 303, 304, 305, 307, 308, 421, 422, 426, 500, 501,
                    502, 503, 504, 505 -> true;
            default -> status >= 400 && status <= 417;
        };
    }

    static boolean isSuccessful(int status) {
        return status >= 200 && status <= 299;
    }
}
