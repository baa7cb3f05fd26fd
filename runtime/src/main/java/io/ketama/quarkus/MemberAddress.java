package io.ketama.quarkus;

import com.hazelcast.cluster.Address;
import com.hazelcast.cluster.Member;
import io.ketama.core.HashIdentity;

/**
 * The name of a Hazelcast member wherever it is shown (JSON, health data, headers, metric tags,
 * the Dev UI, log lines): its cluster address as core names every server,
 * {@link HashIdentity#addressText} ({@code 10.0.0.1:5701}, {@code [::1]:5701}). Not Hazelcast's
 * own {@code Address.toString()}, which brackets IPv4 too.
 */
public final class MemberAddress {

    private MemberAddress() {
    }

    /** {@code host:port} of {@code member}'s cluster address. */
    public static String of(Member member) {
        Address a = member.getAddress();
        return HashIdentity.addressText(a.getHost(), Integer.toString(a.getPort()));
    }
}
