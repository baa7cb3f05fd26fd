package io.ketama.quarkus;

import com.hazelcast.cluster.Member;

import java.util.Set;

/**
 * A member as the rings see it.
 *
 * @param member     the Hazelcast member
 * @param address    its member address as {@code host:port} ({@code [v6]:port} for IPv6)
 * @param identity   the text its ring points are hashed from: its node id when it has one, else its
 *                   address in the configured hash style
 * @param weight     its weight (points = weight × points per weight)
 * @param features   its feature tags, sorted
 * @param datacenter its data centre
 * @param nodeId     its stable node id, or null when it has none
 */
public record MemberInfo(Member member, String address, String identity, int weight, Set<String> features,
                         String datacenter, String nodeId) {

    public MemberInfo {
        features = Set.copyOf(features);
    }
}
