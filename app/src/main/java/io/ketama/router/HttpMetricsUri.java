package io.ketama.router;

import io.vertx.core.http.impl.HttpServerRequestInternal;
import io.vertx.ext.web.RoutingContext;

/**
 * The URI under which Quarkus's HTTP server metrics ({@code http_server_requests_seconds}) count a
 * request answered on a Vert.x route of this app before Quarkus REST sees it. Quarkus REST names
 * its requests by their resource template; a request answered earlier is named by its raw path
 * unless told otherwise, and for {@code /cache/<key>} that is one timer per key: unbounded meters,
 * and under overload a meter registered for nearly every refusal.
 */
final class HttpMetricsUri {

    /** The name Quarkus REST gives {@link CacheResource}'s requests. */
    static final String CACHE = "/cache/{key: .*}";
    /** The name of every request the proxy takes at its root: one timer, however many paths the origin has. */
    static final String ROOT = "/{target: .*}";

    /** Where Quarkus REST leaves the template and Quarkus's HTTP server metrics look for it: a request context local. */
    private static final String TEMPLATE_LOCAL = "UrlPathTemplate";

    private HttpMetricsUri() {
    }

    /** Counts {@code ctx}'s request under {@code template}. */
    @SuppressWarnings("deprecation") // Context.putLocal(Object, Object): the key Quarkus reads is a plain String local
    static void name(RoutingContext ctx, String template) {
        if (ctx.request() instanceof HttpServerRequestInternal request) {
            request.context().putLocal(TEMPLATE_LOCAL, template);
        }
    }
}
