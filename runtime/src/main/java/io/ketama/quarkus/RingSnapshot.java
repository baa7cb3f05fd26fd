package io.ketama.quarkus;

import com.hazelcast.cluster.Member;
import io.ketama.core.FeatureRings;
import io.ketama.core.KetamaRing;
import io.ketama.core.RingVersion;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rings built from one member set, with what they were built from: immutable, one per
 * rebuild. A lookup reads exactly one snapshot: its rings and their feature-ring views; the
 * extension swaps in a whole new snapshot on every rebuild, so a reader that holds one sees a
 * consistent view.
 *
 * <p>{@link #members()} is in ring node order: the member at index {@code i} is node {@code i} of
 * both rings ({@code ring(v).points().node(i)}), and its Hazelcast {@link Member} is that node's payload.
 */
public final class RingSnapshot {

    private final long generation;
    private final Instant builtAt;
    private final String reason;
    private final Duration buildTime;
    private final Member localMember;
    private final List<MemberInfo> members;
    private final List<ExcludedMember> excluded;
    private final Map<RingVersion, RingStats> rings;
    private final Set<String> knownFeatures;
    private final KetamaRing<Member> v1;
    private final KetamaRing<Member> v2;
    private final FeatureRings<Member> featureV1;
    private final FeatureRings<Member> featureV2;
    private final boolean containsLocalMember;

    RingSnapshot(long generation, Instant builtAt, String reason, Duration buildTime, Member localMember,
                 List<MemberInfo> members, List<ExcludedMember> excluded, Map<RingVersion, RingStats> rings,
                 Set<String> knownFeatures, KetamaRing<Member> v1, KetamaRing<Member> v2) {
        this(generation, builtAt, reason, buildTime, localMember, members, excluded, rings, knownFeatures, v1, v2,
                FeatureRings.of(v1), FeatureRings.of(v2));
    }

    /**
     * With feature rings already made (and prepared for the sets in use) by the extension's ring builder.
     * Public only for the extension's runtime, which builds one snapshot per rebuild; an application
     * reads snapshots ({@link RingSelector#snapshot()}) and has no reason to make one.
     */
    public RingSnapshot(long generation, Instant builtAt, String reason, Duration buildTime, Member localMember,
                        List<MemberInfo> members, List<ExcludedMember> excluded, Map<RingVersion, RingStats> rings,
                        Set<String> knownFeatures, KetamaRing<Member> v1, KetamaRing<Member> v2,
                        FeatureRings<Member> featureV1, FeatureRings<Member> featureV2) {
        this.generation = generation;
        this.builtAt = builtAt;
        this.reason = reason;
        this.buildTime = buildTime;
        this.localMember = localMember;
        this.members = List.copyOf(members);
        this.excluded = List.copyOf(excluded);
        this.rings = Map.copyOf(rings);
        this.knownFeatures = Set.copyOf(knownFeatures);
        this.v1 = v1;
        this.v2 = v2;
        this.featureV1 = featureV1;
        this.featureV2 = featureV2;
        this.containsLocalMember = localMember != null
                && members.stream().anyMatch(m -> m.member().getUuid().equals(localMember.getUuid()));
    }

    /** 1 for the first rebuild, one more for each rebuild after it. */
    public long generation() {
        return generation;
    }

    /** When this snapshot was built. */
    public Instant builtAt() {
        return builtAt;
    }

    /** Why it was built: start-up, or the membership events it folds in. */
    public String reason() {
        return reason;
    }

    /** How long building both rings took. */
    public Duration buildTime() {
        return buildTime;
    }

    /** This process's own member. */
    public Member localMember() {
        return localMember;
    }

    /** The members on the rings, in ring node order (sorted by ring identity). */
    public List<MemberInfo> members() {
        return members;
    }

    /** Members of the cluster left out of the rings, with the reason. */
    public List<ExcludedMember> excluded() {
        return excluded;
    }

    /** Points, bytes and balance of each ring version. */
    public Map<RingVersion, RingStats> rings() {
        return rings;
    }

    /** Every feature tag some member on the rings has. */
    public Set<String> knownFeatures() {
        return knownFeatures;
    }

    /** The ring of {@code version}; nodes are {@link #members()} in the same order. */
    public KetamaRing<Member> ring(RingVersion version) {
        return version == RingVersion.V1 ? v1 : v2;
    }

    /**
     * The ring of {@code version} with lookups restricted to members having required features
     * ({@link FeatureRings}); node indices are those of {@link #ring(RingVersion)}.
     */
    public FeatureRings<Member> featureRings(RingVersion version) {
        return version == RingVersion.V1 ? featureV1 : featureV2;
    }

    /** Whether this process's member is on the rings (the readiness condition). */
    public boolean containsLocalMember() {
        return containsLocalMember;
    }

    /** Whether {@code member} (by UUID) is on the rings. */
    public boolean contains(Member member) {
        for (MemberInfo m : members) {
            if (m.member().getUuid().equals(member.getUuid())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "RingSnapshot[generation " + generation + ", " + members.size() + " members, " + excluded.size()
                + " excluded, " + rings + ", reason: " + reason + "]";
    }
}
