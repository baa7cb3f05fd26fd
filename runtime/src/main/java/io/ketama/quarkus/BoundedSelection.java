package io.ketama.quarkus;

import com.hazelcast.cluster.Member;
import java.util.Objects;

/**
 * The answer to "which member should serve this key now" with bounded loads
 * ({@link RingSelector#selectBounded}).
 *
 * @param selection the plain selection: the key's owner, ring version and failover order
 * @param chosen    the member to use: the first of {@code selection.candidates()} with room under its
 *                  bound; the owner when bounded loads are off or no candidate has room; null when
 *                  no member qualifies
 * @param position  where {@code chosen} is in {@code selection.candidates()}: 0 for the owner, 1 for
 *                  the next member, ...; -1 when none qualifies
 */
public record BoundedSelection(Selection selection, Member chosen, int position) {

    public BoundedSelection {
        Objects.requireNonNull(selection, "selection");
    }

    /** Whether the key goes past its owner (to a member further on in its failover order). */
    public boolean spilled() {
        return position > 0;
    }
}
