package io.ketama.quarkus;

import io.ketama.core.KetamaRing;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Feature-constrained lookups on a full ring: the ring for a feature set S is the subsequence of
 * the full ring's points whose node has every feature in S, so the owner is the first qualifying
 * node from the key's position and the failover order is the full order filtered.
 *
 * <p>Which nodes qualify is computed once per feature set per snapshot and cached; a set naming a
 * feature no member has is answered without caching, so request-supplied sets cannot grow the
 * cache beyond the combinations of known features.
 */
final class FeatureFilter {

    /** Bound on cached feature sets, whatever the number of known features. */
    private static final int MAX_CACHED = 4096;

    private final List<MemberInfo> members;
    private final Set<String> knownFeatures;
    private final ConcurrentHashMap<Set<String>, boolean[]> masks = new ConcurrentHashMap<>();

    FeatureFilter(List<MemberInfo> members, Set<String> knownFeatures) {
        this.members = members;
        this.knownFeatures = knownFeatures;
    }

    /** Which node indices have every feature in {@code required}; null when none does. */
    boolean[] qualifying(Set<String> required) {
        if (!knownFeatures.containsAll(required)) {
            return null;
        }
        boolean[] mask = masks.get(required);
        if (mask == null) {
            mask = compute(required);
            if (masks.size() < MAX_CACHED) {
                masks.putIfAbsent(Set.copyOf(required), mask);
            }
        }
        return mask.length == 0 ? null : mask;
    }

    private boolean[] compute(Set<String> required) {
        boolean[] mask = new boolean[members.size()];
        boolean any = false;
        for (int i = 0; i < mask.length; i++) {
            mask[i] = members.get(i).features().containsAll(required);
            any |= mask[i];
        }
        return any ? mask : new boolean[0];
    }

    /** Index of the first qualifying node at or after {@code hash}'s position; -1 when none. Allocates nothing. */
    static int ownerIndex(KetamaRing<?> ring, int hash, boolean[] qualifying) {
        int pos = ring.position(hash);
        if (pos < 0) {
            return -1;
        }
        int count = ring.pointCount();
        for (int step = 0; step < count; step++) {
            int node = ring.nodeIndexAt(pos);
            if (qualifying[node]) {
                return node;
            }
            if (++pos == count) {
                pos = 0;
            }
        }
        return -1;
    }
}
