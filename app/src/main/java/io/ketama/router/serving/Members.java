package io.ketama.router.serving;

import com.hazelcast.cluster.Address;
import com.hazelcast.cluster.Member;
import io.ketama.core.HashIdentity;

/** How members are named in headers, JSON and metrics. */
public final class Members {

    private Members() {
    }

    /** The member's cluster address as {@link HashIdentity#addressText} names every server ({@code [v6]:port} for IPv6). */
    public static String address(Member member) {
        Address a = member.getAddress();
        return HashIdentity.addressText(a.getHost(), Integer.toString(a.getPort()));
    }
}
