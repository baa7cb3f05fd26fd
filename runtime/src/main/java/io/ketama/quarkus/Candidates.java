package io.ketama.quarkus;

import com.hazelcast.cluster.Member;
import io.ketama.core.KetamaRing;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;

/**
 * The failover order of one key, computed on first access: distinct (qualifying) members in ring
 * order from the key's position. A caller that only reads the owner never walks the ring.
 * Unmodifiable; the computed list is immutable, so a racy first access is harmless.
 */
final class Candidates extends AbstractList<Member> {

    private final KetamaRing<Member> ring;
    private final int hash;
    private final boolean[] qualifying;
    private List<Member> members;

    /** @param qualifying node indices allowed (feature-constrained), or null for every node */
    Candidates(KetamaRing<Member> ring, int hash, boolean[] qualifying) {
        this.ring = ring;
        this.hash = hash;
        this.qualifying = qualifying;
    }

    private List<Member> members() {
        List<Member> m = members;
        if (m == null) {
            m = walk();
            members = m;
        }
        return m;
    }

    private List<Member> walk() {
        int pos = ring.position(hash);
        if (pos < 0) {
            return List.of();
        }
        int count = ring.pointCount();
        int nodes = ring.nodeCount();
        boolean[] seen = new boolean[nodes];
        int seenCount = 0;
        List<Member> out = new ArrayList<>();
        for (int step = 0; step < count && seenCount < nodes; step++) {
            int node = ring.nodeIndexAt(pos);
            if (!seen[node]) {
                seen[node] = true;
                seenCount++;
                if (qualifying == null || qualifying[node]) {
                    out.add(ring.node(node).payload());
                }
            }
            if (++pos == count) {
                pos = 0;
            }
        }
        return List.copyOf(out);
    }

    @Override
    public Member get(int index) {
        return members().get(index);
    }

    @Override
    public int size() {
        return members().size();
    }
}
