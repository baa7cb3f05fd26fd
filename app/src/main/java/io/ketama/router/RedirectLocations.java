package io.ketama.router;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * Rewrites a redirect's {@code Location} that points into the origin so that it points at this
 * service instead, as nginx's {@code proxy_redirect default} does for its {@code proxy_pass} URL:
 * key {@code k} is fetched from {@code <base-url>/k}, so a {@code Location} of
 * {@code <base-url>/k2?q} becomes {@code /cache/k2?q}, and a client that follows it stays behind
 * the cache (the key routed to its owner, cached there) instead of going to the origin directly.
 *
 * <p>Rewritten: an absolute URL whose scheme, host and port are the base URL's (case-insensitive,
 * the scheme's default port written or not) and whose path starts with the base URL's path and a
 * slash, and a path-absolute reference ({@code /path}) that starts so. The rest, the new key, is
 * kept byte for byte, query and fragment included. Left as the origin sent it: a {@code Location}
 * elsewhere, one that names the base URL itself with no key, and a relative path ({@code k3},
 * {@code ../k4}), which the client already resolves against {@code /cache/k} to the right key
 * because the service mirrors the origin's paths below {@code /cache/}.
 */
final class RedirectLocations {

    /** Passes every {@code Location} through as the origin sent it. */
    static final RedirectLocations NONE = new RedirectLocations(null, null, null, "");

    private final String scheme;
    private final String authority;
    private final String defaultPortAuthority;
    /** The base URL's path, without a trailing slash, then a slash: what a rewritten path starts with. */
    private final String pathPrefix;

    private RedirectLocations(String scheme, String authority, String defaultPortAuthority, String basePath) {
        this.scheme = scheme;
        this.authority = authority;
        this.defaultPortAuthority = defaultPortAuthority;
        this.pathPrefix = basePath + "/";
    }

    /**
     * The rewriting for an HTTP origin at {@code baseUrl}, or {@link #NONE} when there is no such
     * origin (the demo origin) or rewriting is off.
     *
     * @param baseUrl an absolute http(s) URL, as {@code ketama.router.origin.base-url} is checked to be
     */
    static RedirectLocations of(Optional<String> baseUrl, boolean rewrite) {
        if (!rewrite || baseUrl.isEmpty() || baseUrl.get().isBlank()) {
            return NONE;
        }
        URI base = URI.create(baseUrl.get().trim());
        String scheme = base.getScheme().toLowerCase(Locale.ROOT);
        String host = base.getRawAuthority().toLowerCase(Locale.ROOT);
        int defaultPort = "https".equals(scheme) ? 443 : 80;
        String withoutPort = base.getPort() == defaultPort ? host.substring(0, host.lastIndexOf(':')) : null;
        String withPort = base.getPort() < 0 ? host + ":" + defaultPort : null;
        String path = base.getRawPath() == null ? "" : base.getRawPath();
        return new RedirectLocations(scheme, host, withoutPort != null ? withoutPort : withPort,
                path.endsWith("/") ? path.substring(0, path.length() - 1) : path);
    }

    /** {@code location} as a client of the {@code /cache/} mount is sent it; {@code null} stays {@code null}. */
    String forClient(String location) {
        return forClient(location, Mount.CACHE);
    }

    /**
     * {@code location} as a client that came by {@code mount} is sent it: into {@code /cache/} for the
     * {@code /cache/} mount, onto this service's root for the root; {@code null} stays {@code null}.
     */
    String forClient(String location, Mount mount) {
        if (location == null || scheme == null) {
            return location;
        }
        String path = originPath(location);
        if (path == null || !path.startsWith(pathPrefix) || (mount == Mount.CACHE && path.length() == pathPrefix.length())) {
            return location;
        }
        return (mount == Mount.CACHE ? Mount.CACHE_PREFIX : "/") + path.substring(pathPrefix.length());
    }

    /** The path (and what follows it) of a {@code Location} on the origin's host, or null when it is elsewhere or relative. */
    private String originPath(String location) {
        if (location.startsWith("/") && !location.startsWith("//")) {
            return location;
        }
        int authorityStart;
        if (location.startsWith("//")) {
            authorityStart = 2; // network-path reference: the scheme of the request, the origin's
        } else {
            int colon = location.indexOf("://");
            if (colon <= 0 || !location.substring(0, colon).equalsIgnoreCase(scheme)) {
                return null;
            }
            authorityStart = colon + 3;
        }
        int authorityEnd = authorityStart;
        while (authorityEnd < location.length() && "/?#".indexOf(location.charAt(authorityEnd)) < 0) {
            authorityEnd++;
        }
        String given = location.substring(authorityStart, authorityEnd).toLowerCase(Locale.ROOT);
        if (!given.equals(authority) && !given.equals(defaultPortAuthority)) {
            return null;
        }
        return location.substring(authorityEnd);
    }

    @Override
    public String toString() {
        return scheme == null ? "Location as the origin sent it"
                : "Location " + scheme + "://" + authority + pathPrefix + "k rewritten to " + CacheRoute.PREFIX + "k";
    }
}
