package io.ketama.quarkus.runtime;

import io.ketama.core.NodeShare;
import io.ketama.core.RingAnalysis;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.MemberInfo;
import io.ketama.quarkus.RingSnapshot;
import com.hazelcast.cluster.Member;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Each member's share of the circle over its weight share, for the {@code ketama_ring_share_ratio}
 * gauges. Computed when scraped, once per snapshot (one pass over each ring's points, ~1 ms for
 * 100 members at 160 points per weight), never on the rebuild or the request path.
 */
final class RingShares {

    private final Supplier<RingSnapshot> snapshot;
    private volatile Analysed analysed;

    private record Analysed(RingSnapshot snapshot, Map<String, Double>[] ratios) {
    }

    RingShares(Supplier<RingSnapshot> snapshot) {
        this.snapshot = snapshot;
    }

    /** {@code member}'s ratio on {@code version}'s ring, or NaN when it is not on that ring now. */
    double ratio(RingVersion version, String member) {
        Double r = current().ratios()[version.ordinal()].get(member);
        return r == null ? Double.NaN : r;
    }

    @SuppressWarnings("unchecked")
    private Analysed current() {
        RingSnapshot s = snapshot.get();
        Analysed a = analysed;
        if (a != null && a.snapshot() == s) {
            return a;
        }
        Map<String, Double>[] ratios = new Map[RingVersion.values().length];
        List<MemberInfo> members = s.members();
        for (RingVersion v : RingVersion.values()) {
            Map<String, Double> byMember = new HashMap<>();
            Map<Member, String> identities = new HashMap<>();
            members.forEach(m -> identities.put(m.member(), m.identity()));
            for (NodeShare<Member> share : RingAnalysis.of(s.ring(v)).shares()) {
                String identity = identities.get(share.node().payload());
                if (identity != null) {
                    byMember.put(identity, share.ratio());
                }
            }
            ratios[v.ordinal()] = byMember;
        }
        a = new Analysed(s, ratios);
        analysed = a;
        return a;
    }
}
