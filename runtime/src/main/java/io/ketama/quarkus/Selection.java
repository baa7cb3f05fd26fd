package io.ketama.quarkus;

import com.hazelcast.cluster.Member;
import io.ketama.core.RingVersion;

import java.util.List;
import java.util.Objects;

/**
 * The answer to "which member owns this key".
 *
 * @param owner      the member that owns the key, or null when no member qualifies (no ring yet, or
 *                   no member has every required feature)
 * @param version    the ring version that served the key (chosen by the migration settings, also
 *                   when no member was found)
 * @param candidates the distinct qualifying members in ring order from the key's position, starting
 *                   with the owner: the failover order. Empty when {@code owner} is null. Computed on
 *                   first access, so a caller that only needs the owner pays nothing for it.
 */
public record Selection(Member owner, RingVersion version, List<Member> candidates) {

    public Selection {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(candidates, "candidates");
    }

    /** Whether a member owns the key. */
    public boolean found() {
        return owner != null;
    }
}
