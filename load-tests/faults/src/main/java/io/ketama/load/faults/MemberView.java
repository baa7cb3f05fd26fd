package io.ketama.load.faults;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one member said about the cluster in one poll: its rings' members and last rebuild
 * ({@code GET /ring}), the owner it names for each key of the sample ({@code GET /route/{key}}) and
 * the migration generation it applies ({@code GET /q/ketama/migration} on its management port).
 * A member that did not answer in time has {@code answered == false} and nothing else.
 *
 * @param member the member's index
 * @param answered whether every request of the poll was answered
 * @param ring the cluster addresses its rings hold (may be empty: an empty ring)
 * @param rebuildGeneration the generation of its last ring rebuild (it counts rebuilds since start)
 * @param migrationGeneration the generation of the cluster's migration state it applies
 * @param v2SharePercent the v2 share of that state
 * @param owners for each sample key, the owner's cluster address ({@code ""} when the member named none)
 * @param error why it did not answer, or null
 */
public record MemberView(int member, boolean answered, Set<String> ring, long rebuildGeneration, long migrationGeneration,
        double v2SharePercent, Map<String, String> owners, String error) {

    public MemberView {
        ring = ring == null ? Set.of() : Set.copyOf(ring);
        owners = owners == null ? Map.of() : Map.copyOf(owners);
    }

    public static MemberView silent(int member, String error) {
        return new MemberView(member, false, Set.of(), -1, -1, Double.NaN, Map.of(), error);
    }

    /** The owners in key order, for comparing two members. */
    List<String> ownersInOrder(List<String> keys) {
        return keys.stream().map(k -> owners.getOrDefault(k, "?")).toList();
    }
}
