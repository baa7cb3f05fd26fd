package io.ketama.router.serving;

import com.hazelcast.cluster.Member;
import io.ketama.quarkus.MemberAddress;

/** How members are named in headers, JSON and metrics. */
public final class Members {

    private Members() {
    }

    /** {@link MemberAddress#of}: {@code host:port}, {@code [v6]:port} for IPv6. */
    public static String address(Member member) {
        return MemberAddress.of(member);
    }
}
