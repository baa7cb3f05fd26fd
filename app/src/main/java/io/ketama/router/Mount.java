package io.ketama.router;

/**
 * Where a request enters the proxy, and so how its target maps to the origin's and to its key.
 *
 * <ul>
 *   <li>{@link #ROOT}: every path that is not one of the service's own ({@link #proxied}); target
 *       {@code /t} is {@code <base-url>/t} at the origin, and its key (by default) the target itself,
 *       nginx's {@code $request_uri}. The service stands in front of the origin unchanged.</li>
 *   <li>{@link #CACHE}: {@code /cache/k}, the mount of earlier releases, kept so their clients and
 *       their keys stay as they were: {@code /cache/k} is {@code <base-url>/k} at the origin, and its
 *       key {@code k}, as before, so a rolling upgrade moves no key. It and the root name the same
 *       origin target under two keys: a client uses one or the other.</li>
 * </ul>
 */
enum Mount {
    ROOT, CACHE;

    static final String CACHE_PREFIX = "/cache/";

    /** Paths of the service's own that are never proxied: exactly these, or these followed by {@code /}. */
    private static final String[] OWN = {"/q", "/route", "/ring", "/bench", "/_ketama", "/cache"};

    /**
     * Whether {@code path} (a raw request path) enters the proxy at its root: every path but the
     * service's own ({@code /q/…} health and OpenAPI, {@code /route}, {@code /ring}, {@code /bench/},
     * the {@code http} transport's {@code /_ketama/}) and {@code /cache}, which has its own mount.
     */
    static boolean proxied(String path) {
        for (String own : OWN) {
            if (path.startsWith(own) && (path.length() == own.length() || path.charAt(own.length()) == '/'
                    || path.charAt(own.length()) == '?')) {
                return false;
            }
        }
        return true;
    }
}
