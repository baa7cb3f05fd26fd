package io.ketama.quarkus.runtime;

import com.hazelcast.cluster.Address;
import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.impl.MemberImpl;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/** Hazelcast member values (what {@code Cluster.getMembers()} holds) for pure ring-building tests. */
final class Members {

    private Members() {
    }

    /** A member at {@code ip:port} with the given attributes (key, value, ...). */
    static Member member(String ip, int port, String... attributes) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < attributes.length; i += 2) {
            map.put(attributes[i], attributes[i + 1]);
        }
        try {
            return new MemberImpl.Builder(new Address(ip, InetAddress.getByName(ip), port))
                    .uuid(UUID.nameUUIDFromBytes((ip + ":" + port).getBytes()))
                    .attributes(map)
                    .build();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(ip, e);
        }
    }
}
