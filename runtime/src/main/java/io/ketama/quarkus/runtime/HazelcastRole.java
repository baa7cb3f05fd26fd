package io.ketama.quarkus.runtime;

import com.hazelcast.core.HazelcastInstance;

/** Whether a {@code HazelcastInstance} is a member of its cluster or a client of it. */
final class HazelcastRole {

    private HazelcastRole() {
    }

    /**
     * True for a client: Hazelcast answers {@code getLocalMember()} only on a member, and a client's
     * local endpoint is a {@code Client}.
     */
    static boolean isClient(HazelcastInstance hazelcast) {
        return hazelcast.getLocalEndpoint() instanceof com.hazelcast.client.Client;
    }
}
