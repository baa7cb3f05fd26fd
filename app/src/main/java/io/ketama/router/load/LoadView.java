package io.ketama.router.load;

import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The cluster's load as one member read it from the {@link LoadBoard} after a window.
 *
 * @param window      which of this member's windows it was read after (0: none yet)
 * @param clusterRate {@code L}: answers all members with a fresh entry served a second
 * @param totalWeight {@code W}: the weight of those members that are on the rings
 * @param meanRate    {@code L / W}: what a member of weight 1 serves a second on average
 * @param members     each member with a fresh entry, this one included, in the cluster's member order
 * @param full        the members among them at or past their bound (spilled requests go past them)
 */
public record LoadView(long window, double clusterRate, long totalWeight, double meanRate, List<MemberLoad> members,
                       Set<UUID> full) {

    static final LoadView EMPTY = new LoadView(0, 0, 0, 0, List.of(), Set.of());

    public LoadView {
        members = List.copyOf(members);
        full = Set.copyOf(full);
    }

    /** Whether {@code member} had room under its bound in its last window (true for one not on the board). */
    public boolean hasRoom(UUID member) {
        return full.isEmpty() || !full.contains(member);
    }

    /** This member's entry, or null before the first window. */
    public MemberLoad local() {
        for (MemberLoad m : members) {
            if (m.local()) {
                return m;
            }
        }
        return null;
    }
}
