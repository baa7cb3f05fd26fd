package io.ketama.quarkus.runtime;

import io.ketama.quarkus.ExcludedMember;
import io.ketama.quarkus.MemberAddress;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.ServingState;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Watches who is in the cluster and who is serving, asks for a ring rebuild whenever either
 * changes, and answers which members belong on the rings now.
 *
 * <p>The rings are a function of the set of members that are in the cluster <em>and</em> serving:
 * a member with the {@link MemberAttributes#GATED} attribute is placed only once its
 * {@link MemberBoard} entry says {@link ServingState#SERVING}; any member whose entry says
 * {@link ServingState#DRAINING} is left out; a member without the attribute (a plain Hazelcast
 * member that publishes only its placement attributes) is placed as soon as it is in the cluster.
 * Events only trigger a rebuild; the rebuild reads the full current state ({@link #ringMembers()}),
 * so events that arrive late or out of order change nothing but the timing.
 */
final class MembershipWatcher implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(MembershipWatcher.class);

    private final HazelcastInstance hazelcast;
    private final MemberBoard board;
    private final MemberAllowlist allowlist;
    private final Consumer<String> requestRebuild;
    private UUID listenerId;

    /**
     * @param requestRebuild asks for a rebuild, with the reason; called on Hazelcast event threads
     *                       (must return at once)
     */
    MembershipWatcher(HazelcastInstance hazelcast, MemberBoard board, MemberAllowlist allowlist, Consumer<String> requestRebuild) {
        this.hazelcast = Objects.requireNonNull(hazelcast, "hazelcast");
        this.board = Objects.requireNonNull(board, "board");
        this.allowlist = allowlist;
        this.requestRebuild = Objects.requireNonNull(requestRebuild, "requestRebuild");
    }

    void start() {
        listenerId = hazelcast.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                requestRebuild.accept("member added " + MemberAddress.of(event.getMember()));
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                requestRebuild.accept("member removed " + MemberAddress.of(event.getMember()));
            }
        });
    }

    /**
     * Who may be on the rings now.
     *
     * @param members the members that belong on the rings, in the cluster's member order
     * @param refused members left out for their address ({@code quarkus.ketama.hazelcast.member-allowlist})
     */
    record RingMembers(List<Member> members, List<ExcludedMember> refused) {
    }

    /**
     * The members that belong on the rings now, in the cluster's member order (join order, the
     * same on every member), and those the allowlist refuses. Takes the board as heard
     * ({@link MemberBoard#snapshot}), reading remotely only members not heard from yet: call it off
     * the request path.
     */
    RingMembers ringMembers() {
        Set<Member> members = hazelcast.getCluster().getMembers();
        Map<UUID, MemberStatus> statuses = board.snapshot(members);
        List<Member> out = new ArrayList<>(members.size());
        List<ExcludedMember> refused = new ArrayList<>();
        for (Member m : members) {
            if (allowlist != null && !allowlist.allows(m)) {
                refused.add(new ExcludedMember(m, allowlist.reason(m)));
            } else if (belongsOnRings(m, statuses.get(m.getUuid()))) {
                out.add(m);
            }
        }
        return new RingMembers(out, refused);
    }

    /** Whether {@code member}, with board entry {@code status} (null: none), belongs on the rings. */
    static boolean belongsOnRings(Member member, MemberStatus status) {
        ServingState state = status == null ? null : status.state();
        if (state == ServingState.DRAINING) {
            return false;
        }
        return !MemberAttributes.isGated(member) || state == ServingState.SERVING;
    }

    @Override
    public void close() {
        if (listenerId != null) {
            try {
                hazelcast.getCluster().removeMembershipListener(listenerId);
            } catch (RuntimeException e) {
                LOG.debugf("ketama: membership listener not removed: %s", e);
            }
        }
    }
}
