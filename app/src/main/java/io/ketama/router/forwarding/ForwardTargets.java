package io.ketama.router.forwarding;

import com.hazelcast.cluster.InitialMembershipEvent;
import com.hazelcast.cluster.InitialMembershipListener;
import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.core.HazelcastInstance;

import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Keeps a {@link Forwarder}'s member set equal to the cluster's: a forward to a member that has
 * left fails at once, and the guards of departed members are dropped. The rings follow membership
 * on their own (with the extension's coalescing and serving gate); this is only the forwarder's view.
 *
 * <p>The members at registration come as Hazelcast's initial event, on the same event thread and
 * before any later change: a member set read by the caller after registering could land after a
 * newer event's set and put a departed member back until the next change.
 */
public final class ForwardTargets implements InitialMembershipListener, AutoCloseable {

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
        return new ForwardTargets(hazelcast, forwarder);
    }

    /** The UUIDs of {@code members}. */
    public static Set<UUID> uuids(Set<Member> members) {
        return members.stream().map(Member::getUuid).collect(Collectors.toSet());
    }

    @Override
    public void init(InitialMembershipEvent event) {
        forwarder.membersNow(uuids(event.getMembers()));
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
