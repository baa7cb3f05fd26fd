package io.ketama.client;

import com.hazelcast.cluster.Member;
import java.net.URI;

/**
 * Where a member of the service takes HTTP requests: the host of its Hazelcast address (or the
 * {@link #HTTP_HOST} attribute, for a member whose cluster network is not its clients'), and the port
 * it publishes as the {@link #HTTP_PORT} attribute. A member without a usable port is not
 * addressable: the client tries the key's next candidate.
 */
record MemberEndpoint(String host, int port) {

    /** The member attribute with the service's HTTP port (set when {@code quarkus.http.port} is not 0). */
    static final String HTTP_PORT = "ketama-router.http-port";
    /** The member attribute with the host clients reach its HTTP port on, when not its Hazelcast host. */
    static final String HTTP_HOST = "ketama-router.http-host";

    /** The member's endpoint, or null when it publishes no port between 1 and 65535. */
    static MemberEndpoint of(Member member) {
        String port = member.getAttribute(HTTP_PORT);
        if (port == null) {
            return null;
        }
        int p;
        try {
            p = Integer.parseInt(port.trim());
        } catch (NumberFormatException e) {
            return null;
        }
        if (p < 1 || p > 65_535) {
            return null;
        }
        String host = member.getAttribute(HTTP_HOST);
        if (host == null || host.isBlank()) {
            host = member.getAddress().getHost();
        }
        return new MemberEndpoint(host.trim(), p);
    }

    /** {@code http://host:port} followed by {@code pathAndQuery}, an IPv6 host in brackets. */
    URI uri(String pathAndQuery) {
        String h = host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
        return URI.create("http://" + h + ":" + port + pathAndQuery);
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
