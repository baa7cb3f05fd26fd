package io.ketama.quarkus.runtime;

import com.hazelcast.cluster.Member;
import io.ketama.core.FeatureRings;
import io.ketama.core.HashIdentity;
import io.ketama.core.HashStyle;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.RingAnalysis;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.ExcludedMember;
import io.ketama.quarkus.MemberInfo;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.RingStats;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Builds the v1 and v2 rings for a member set: a pure function of the members' attributes and
 * addresses and the {@link RingSettings}, with no CDI and no Hazelcast instance needed. It is what
 * {@link RingSelector} runs on every membership change, and what any other member (or a test)
 * runs to compute the same rings.
 *
 * <h2>Agreement</h2>
 * Members are sorted by ring identity before both rings are built, so the rings do not depend on
 * the order the members are given in (v1 breaks hash ties by input order, so every member must
 * feed it the same order). The one exception is a ring identity claimed by two members (two pods
 * with one node id): the member that comes first in the given collection keeps it and the other is
 * excluded. Pass the cluster's member set ({@code Cluster.getMembers()}), whose order is join
 * order and the same on every member, and every member resolves it the same way.
 *
 * <h2>Feature rings</h2>
 * The one state a builder keeps: the last snapshot it built. The feature sets lookups used on it
 * ({@link FeatureRings#plannedSets()}) are planned on the next snapshot before it is returned
 * ({@link FeatureRings#prepare}), dedicated rings included, so that after a swap no lookup plans
 * or materialises a set on the request path. The rings themselves do not depend on it.
 */
final class RingBuilder {

    private final RingSettings settings;
    /** The last snapshot built: its feature sets in use are prepared on the next (rebuild thread only). */
    private volatile RingSnapshot last;

    public RingBuilder(RingSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    public RingSettings settings() {
        return settings;
    }

    /**
     * Builds both rings.
     *
     * @param members     the cluster's members (see the class comment on their order)
     * @param localMember this process's member, or null for a pure computation
     * @param generation  the snapshot's generation number
     * @param reason      why it is built, for diagnostics
     */
    public RingSnapshot build(Collection<Member> members, Member localMember, long generation, String reason) {
        return build(members, List.of(), localMember, generation, reason);
    }

    /** {@link #build(Collection, Member, long, String)} with members already left out, and why. */
    RingSnapshot build(Collection<Member> members, List<ExcludedMember> leftOut, Member localMember, long generation, String reason) {
        long start = System.nanoTime();
        List<MemberParser.Parsed> accepted = new ArrayList<>(members.size());
        List<ExcludedMember> excluded = new ArrayList<>(leftOut);
        Map<HashIdentity, MemberParser.Parsed> byIdentity = new HashMap<>();
        for (Member member : members) {
            MemberParser.Parsed parsed;
            try {
                parsed = MemberParser.parse(member, settings.hashStyle());
            } catch (IllegalArgumentException e) {
                excluded.add(new ExcludedMember(member, e.getMessage()));
                continue;
            }
            MemberParser.Parsed earlier = byIdentity.putIfAbsent(parsed.identity(), parsed);
            if (earlier != null) {
                excluded.add(new ExcludedMember(member, "ring identity '" + parsed.info().identity()
                        + "' is already used by member " + earlier.info().address() + " (" + earlier.info().member().getUuid()
                        + "), which joined earlier; node ids must be unique"));
                continue;
            }
            accepted.add(parsed);
        }
        // the clients' server-list order where the members give it (their shared points go by it), else identity order
        accepted.sort(Comparator.comparingInt(MemberParser.Parsed::listIndex).thenComparing(MemberParser.Parsed::identity));

        List<Node<Member>> nodes = new ArrayList<>(accepted.size());
        List<MemberInfo> infos = new ArrayList<>(accepted.size());
        TreeSet<String> features = new TreeSet<>();
        for (MemberParser.Parsed p : accepted) {
            MemberInfo info = p.info();
            nodes.add(new Node<>(p.identity(), info.weight(), info.features(), info.member()));
            infos.add(info);
            features.addAll(info.features());
        }
        requireWithinLimits(nodes);
        // a memcached style replaces v1: the placement the cluster's clients already use
        HashStyle style = settings.hashStyle();
        KetamaRing<Member> v1 = style.placesKeys() ? KetamaRing.build(style, settings.hashOptions(), nodes) : KetamaRing.build(RingVersion.V1, nodes);
        // from v1's own nodes: both rings then share one node table (about 50 bytes a member, not twice that)
        KetamaRing<Member> v2 = KetamaRing.build(RingVersion.V2, settings.v2PointsPerWeight(), v1.nodes());
        Map<RingVersion, RingStats> stats = new EnumMap<>(RingVersion.class);
        stats.put(RingVersion.V1, stats(v1));
        stats.put(RingVersion.V2, stats(v2));
        FeatureRings<Member> featureV1 = FeatureRings.of(v1);
        FeatureRings<Member> featureV2 = FeatureRings.of(v2);
        RingSnapshot previous = last;
        if (previous != null) {
            // the sets lookups used on the previous rings are planned (and materialised) here, on the
            // rebuild thread, not by the first lookups after the swap
            featureV1.prepare(previous.featureRings(RingVersion.V1).plannedSets());
            featureV2.prepare(previous.featureRings(RingVersion.V2).plannedSets());
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        RingSnapshot built = new RingSnapshot(generation, Instant.now(), reason, took, localMember, infos, excluded, stats, features,
                v1, v2, featureV1, featureV2);
        last = built;
        return built;
    }

    /**
     * The limits of a ring, checked before anything is built so that a rebuild past them fails
     * with a message naming the cause (the previous rings stay in use; at start-up the member does
     * not start), never with node numbers that wrap: at most {@link KetamaRing#MAX_NODES} members,
     * and at most {@link KetamaRing#MAX_POINTS} points on each ring (v1: 160 per unit of weight, v2:
     * {@link RingSettings#POINTS_KEY} per unit of weight).
     *
     * @throws IllegalArgumentException naming the limit, the cluster's figure and what to change
     */
    void requireWithinLimits(List<Node<Member>> nodes) {
        if (nodes.size() > KetamaRing.MAX_NODES) {
            throw new IllegalArgumentException("the rings cannot be built: " + nodes.size() + " members are to be placed, and a ring holds at most "
                    + KetamaRing.MAX_NODES + " (" + KetamaRing.NODES_RULE + ")");
        }
        long weight = 0;
        for (Node<Member> n : nodes) {
            weight += n.weight();
        }
        int k = settings.v2PointsPerWeight();
        if (weight * k > KetamaRing.MAX_POINTS) {
            throw new IllegalArgumentException("the v2 ring cannot be built: " + nodes.size() + " members of total weight " + weight + " at "
                    + k + " points per weight make " + (weight * k) + " points, and a ring holds at most " + KetamaRing.MAX_POINTS
                    + "; set " + RingSettings.POINTS_KEY + " to at most " + (KetamaRing.MAX_POINTS / weight) + " or lower the weights");
        }
        if (!settings.hashStyle().placesKeys() && weight * 160 > KetamaRing.MAX_POINTS) {
            throw new IllegalArgumentException("the v1 ring cannot be built: " + nodes.size() + " members of total weight " + weight
                    + " at nginx's 160 points per weight make " + (weight * 160) + " points, and a ring holds at most " + KetamaRing.MAX_POINTS
                    + "; lower the weights (total weight at most " + (KetamaRing.MAX_POINTS / 160) + ")");
        }
    }

    private static RingStats stats(KetamaRing<Member> ring) {
        return new RingStats(ring.pointCount(), ring.retainedBytes(), ring.pointsPerWeight(), RingAnalysis.of(ring).coefficientOfVariation());
    }
}
