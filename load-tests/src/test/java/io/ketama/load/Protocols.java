package io.ketama.load;

import static io.gatling.javaapi.http.HttpDsl.http;

import io.gatling.javaapi.http.HttpProtocolBuilder;

/** The HTTP client settings every simulation uses. */
final class Protocols {

    private Protocols() {
    }

    /**
     * Plain HTTP/1.1 to loopback members: no warm-up request to an outside site, one shared
     * connection pool (as a load balancer in front of the cluster would keep), no HTTP caching
     * (every request must reach the cluster).
     */
    static HttpProtocolBuilder loopback() {
        return http.disableWarmUp()
                .shareConnections()
                .disableCaching()
                .acceptHeader("*/*")
                .userAgentHeader("ketama-load-tests");
    }
}
