package io.ketama.router;

import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.HttpFields;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;

/**
 * Reads a request entering the proxy ({@link ProxiedRequest}): its key by the configured template
 * ({@link KeyTemplate}), its target at the origin by its {@link Mount}, and the fields it carries on.
 *
 * <p>Fields carried on are the client's end-to-end ones (RFC 9110 §7.6.1: the hop-by-hop ones and
 * those {@code Connection} names stay here) less {@code Host} (the origin gets its own authority,
 * as nginx's {@code proxy_set_header Host $proxy_host} default), {@code Content-Length} and
 * {@code Expect} (the body is sent whole, with its own length), this service's own
 * {@code X-Ketama-*} fields, and those {@code ketama.router.proxy.strip-request-fields} names:
 * inputs an origin may read that no cache key or {@code Vary} covers, through which one client could
 * poison the answer stored for every other (app/README, "Unkeyed inputs").
 */
@Singleton
final class RequestReader {

    private static final String OWN_PREFIX = "X-Ketama-";

    private final KeyTemplate keys;
    private final String[] stripped;

    @jakarta.inject.Inject
    RequestReader(RouterSettings settings) {
        this(settings.proxy().key(), settings.proxy().stripRequestFields());
    }

    RequestReader(KeyTemplate keys, List<String> stripped) {
        this.keys = keys;
        this.stripped = stripped.toArray(new String[0]);
    }

    /**
     * @throws ProblemException for a target that cannot be a key (empty after {@code /cache/}, over
     *                          8 KiB, not starting with the mount)
     */
    ProxiedRequest read(HttpServerRequest request, Mount mount) {
        String uri = request.uri();
        String target;
        String requestUri;
        if (mount == Mount.CACHE) {
            requestUri = RawKey.fromRequestTarget(uri, Mount.CACHE_PREFIX).text();
            target = "/" + requestUri;
        } else {
            target = RawKey.originForm(uri == null ? "/" : uri);
            if (!target.startsWith("/")) {
                throw new ProblemException(ProblemType.BAD_REQUEST_TARGET, "the request target must be a path starting with /"
                        + " (or an absolute URL), was " + (target.length() > 100 ? target.substring(0, 100) + "..." : target));
            }
            requestUri = RawKey.checked(target).text();
        }
        String method = request.method().name();
        MultiMap headers = request.headers();
        String scheme = request.isSSL() ? "https" : "http";
        String host = headers.get("Host");
        String key = keys.targetOnly() ? requestUri : keys.key(requestUri, method, scheme, host);
        return new ProxiedRequest(mount, RawKey.checked(key), target, new CacheRequest(method, carried(headers)),
                headers.getAll(FeaturesHeader.NAME), scheme, host);
    }

    /**
     * The keys a {@code GET} of origin target {@code target} (starting with {@code /}) is stored under,
     * through either mount, for a request like {@code like} (its scheme and host): what an unsafe
     * request to the target invalidates (RFC 9111 §4.4).
     */
    List<String> keysOf(String target, ProxiedRequest like) {
        String root = keys.key(target, "GET", like.scheme(), like.host());
        String cache = keys.key(target.substring(1), "GET", like.scheme(), like.host());
        return target.length() == 1 ? List.of(root) : List.of(root, cache);
    }

    /** The client's fields this member carries on (see the class comment). */
    HttpFields carried(MultiMap headers) {
        HttpFields.Builder fields = HttpFields.builder(headers.size());
        for (Map.Entry<String, String> field : headers) {
            String name = field.getKey();
            if (!name.regionMatches(true, 0, OWN_PREFIX, 0, OWN_PREFIX.length()) && !HttpFields.sameName(name, "Host")
                    && !HttpFields.sameName(name, "Content-Length") && !HttpFields.sameName(name, "Expect") && !strippedName(name)) {
                fields.add(name, field.getValue());
            }
        }
        return fields.build().endToEnd();
    }

    private boolean strippedName(String name) {
        for (String s : stripped) {
            if (HttpFields.sameName(s, name)) {
                return true;
            }
        }
        return false;
    }
}
