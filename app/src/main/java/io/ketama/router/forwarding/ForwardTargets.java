package io.ketama.router.forwarding;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;

import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Keeps a {@link Forwarder}'s member set equal to the cluster's: a forward to a member that has
 * left fails at once, and the guards of departed members are dropped. The rings follow membership
 * on their own (with the extension's coalescing and serving gate); this is only the forwarder's view.
 */
public final class ForwardTargets implements MembershipListener, AutoCloseable {

    private final HazelcastInstance hazelcast;
    private final Forwarder forwarder;
    private final UUID registration;

    private ForwardTargets(HazelcastInstance hazelcast, Forwarder forwarder) {
        this.hazelcast = hazelcast;
        this.forwarder = forwarder;
        this.registration = hazelcast.getCluster().addMembershipListener(this);
    }

    /** Follows {@code hazelcast}'s membership into {@code forwarder} until {@link #close()}. */
    public static ForwardTargets follow(HazelcastInstance hazelcast, Forwarder forwarder) {
        ForwardTargets targets = new ForwardTargets(hazelcast, forwarder);
        // a member that joined or left between the forwarder's first set and the registration
        forwarder.membersNow(uuids(hazelcast.getCluster().getMembers()));
        return targets;
    }

    /** The UUIDs of {@code members}. */
    public static Set<UUID> uuids(Set<Member> members) {
        return members.stream().map(Member::getUuid).collect(Collectors.toSet());
    }

    @Override
    public void memberAdded(MembershipEvent event) {
        forwarder.membersNow(uuids(event.getMembers()));
    }

    @Override
    public void memberRemoved(MembershipEvent event) {
        forwarder.membersNow(uuids(event.getMembers()));
    }

    @Override
    public void close() {
        hazelcast.getCluster().removeMembershipListener(registration);
    }
}
