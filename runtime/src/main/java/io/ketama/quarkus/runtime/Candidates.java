package io.ketama.quarkus.runtime;

import com.hazelcast.cluster.Member;
import io.ketama.core.FeatureRings;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The failover order of one key, computed on first access: distinct qualifying members in ring
 * order from the key's position (for a spymemcached-style v1 ring, in the order of its probes). A caller that only reads the owner never walks the ring.
 * Unmodifiable; the computed list is immutable, so a racy first access is harmless.
 */
final class Candidates extends AbstractList<Member> {

    private final FeatureRings<Member> rings;
    /** The key: a {@code String} (its UTF-8 bytes) or a {@code byte[]}. */
    private final Object key;
    private final Set<String> required;
    private List<Member> members;

    Candidates(FeatureRings<Member> rings, Object key, Set<String> required) {
        this.rings = rings;
        this.key = key;
        this.required = required;
    }

    private List<Member> members() {
        List<Member> m = members;
        if (m == null) {
            List<Member> out = new ArrayList<>();
            // the ring's own failover of the key (a spymemcached-style ring probes the key itself)
            (key instanceof String text ? rings.failover(text, required) : rings.failover((byte[]) key, required))
                    .forEachRemaining(node -> out.add(node.payload()));
            m = List.copyOf(out);
            members = m;
        }
        return m;
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
