package io.ketama.quarkus;

import com.hazelcast.cluster.Member;

import java.util.Objects;

/**
 * What a member of the cluster says about itself: its serving state and the migration generation
 * it applies. A member that does not run this extension says nothing ({@link #reported()} false).
 *
 * @param member              the Hazelcast member
 * @param address             its address as {@code host:port}
 * @param state               its serving state, or null when it reports none
 * @param migrationGeneration the migration generation it applies, or 0 when it reports none
 */
public record MemberStanding(Member member, String address, ServingState state, long migrationGeneration) {

    public MemberStanding {
        Objects.requireNonNull(member, "member");
        Objects.requireNonNull(address, "address");
    }

    /** Whether the member reports its state (it runs this extension). */
    public boolean reported() {
        return state != null;
    }
}
