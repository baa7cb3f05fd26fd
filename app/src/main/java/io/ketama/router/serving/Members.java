package io.ketama.router.serving;

import com.hazelcast.cluster.Address;
import com.hazelcast.cluster.Member;

/** How members are named in headers, JSON and metrics. */
public final class Members {

    private Members() {
    }

    /** {@code host:port} of the member's cluster address ({@code [v6]:port} for IPv6). */
    public static String address(Member member) {
        Address a = member.getAddress();
        String host = a.getHost();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + a.getPort();
    }
}
