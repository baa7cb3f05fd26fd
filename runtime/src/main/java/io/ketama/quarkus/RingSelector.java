package io.ketama.quarkus;

import com.hazelcast.cluster.Member;
import io.ketama.core.BoundedLoads;
import io.ketama.core.Crc32;
import io.ketama.core.KetamaRing;
import io.ketama.core.FeatureRings;
import io.ketama.core.Node;
import io.ketama.core.RingPoints;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.runtime.ClusterRings;
import io.ketama.quarkus.runtime.MemberLifecycle;
import io.ketama.quarkus.runtime.MigrationSplit;
import io.ketama.quarkus.runtime.RingBuilder;
import io.ketama.quarkus.runtime.RingMetrics;
import io.ketama.quarkus.runtime.RingSettings;
import io.ketama.quarkus.runtime.ShadowCounts;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * Which member of the Hazelcast cluster owns a cache key. Inject it anywhere:
 *
 * <pre>{@code
 * @Inject RingSelector rings;
 * Selection s = rings.select(url);          // s.owner(), s.version(), s.candidates()
 * }</pre>
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>Every member computes the same owner for a key from the same member set and the same
 *       {@link RingSettings} (see {@link RingBuilder}); which ring version serves a key is decided
 *       per key by the cluster's {@link MigrationState}, one value for every member, versioned by a
 *       generation and changed by {@link #updateMigration} (or {@code PUT /q/ketama/migration}).</li>
 *   <li>The rings hold the members that are in the cluster and serving: a member joins them once
 *       its application has started, and on a graceful stop leaves them before it stops serving
 *       (see {@link RingsLeft}).</li>
 *   <li>Lookups never block and never see half a ring: rebuilds run on a background thread from
 *       the full member set after each membership or serving change (coalesced within
 *       {@code quarkus.ketama.rebuild.coalesce-delay}) and are swapped in as one snapshot.</li>
 *   <li>A lookup allocates only its {@link Selection}; the failover candidates are computed when
 *       first read.</li>
 * </ul>
 * This bean answers selections and reads the state behind them; {@link MemberLifecycle} keeps that
 * state (starts this member's rings, serves, drains, stops).
 */
@ApplicationScoped
public class RingSelector {

    /** The {@code expectedGeneration} of {@link #updateMigration(MigrationSettings, long, String)} that any generation matches. */
    public static final long ANY_GENERATION = -1;

    @Inject
    MemberLifecycle member;
    @Inject
    RingMetrics metrics;
    @Inject
    KetamaConfig config;

    /** Where the rings are kept current ({@link MemberLifecycle}); read once, then without a proxy per lookup. */
    private ClusterRings cluster;
    /** Where shadow selections are counted for a ramp's brake: the rings' own counts. */
    private ShadowCounts shadows;

    /** {@code quarkus.ketama.bounded-load.*}, validated at start-up with every other key. */
    private BoundedLoadSettings bounded;
    /** The bounded-load choosers of the snapshot read last (one per ring, made on first use after a rebuild). */
    private volatile Choosers choosers;

    private record Choosers(RingSnapshot snapshot, BoundedLoads<Member> v1, BoundedLoads<Member> v2) {
        BoundedLoads<Member> of(RingVersion version) {
            return version == RingVersion.V1 ? v1 : v2;
        }
    }

    @PostConstruct
    void init() {
        cluster = member.rings();
        shadows = cluster.shadows();
        bounded = BoundedLoadSettings.of(config);
    }

    /** The owner of the UTF-8 bytes of {@code key}. */
    public Selection select(String key) {
        return select(Objects.requireNonNull(key, "key"), null, Set.of());
    }

    /** The owner of {@code key}. */
    public Selection select(byte[] key) {
        return select(null, Objects.requireNonNull(key, "key"), Set.of());
    }

    /**
     * The owner of the UTF-8 bytes of {@code key} among the members that have every feature in
     * {@code requiredFeatures} (a set naming a feature no member has: no owner). The set is read
     * again when {@link Selection#candidates()} is first read: pass one that does not change.
     */
    public Selection select(String key, Set<String> requiredFeatures) {
        return select(Objects.requireNonNull(key, "key"), null, Objects.requireNonNull(requiredFeatures, "requiredFeatures"));
    }

    /** {@link #select(String, Set)} for the bytes of {@code key}. */
    public Selection select(byte[] key, Set<String> requiredFeatures) {
        return select(null, Objects.requireNonNull(key, "key"), Objects.requireNonNull(requiredFeatures, "requiredFeatures"));
    }

    /** One of {@code text} and {@code bytes} is the key. */
    private Selection select(String text, byte[] bytes, Set<String> required) {
        int crc = text != null ? Crc32.hashUtf8(text) : Crc32.hash(bytes);
        RingSnapshot s = cluster.snapshot();
        MigrationSplit r = cluster.split();
        RingVersion version = r.versionFor(crc); // the split stays sticky by CRC-32 whatever the v1 ring's style
        FeatureRings<Member> rings = s.featureRings(version);
        int hash = keyHash(rings.ring(), text, bytes, crc);
        int owner = required.isEmpty() ? rings.ring().points().nodeIndexForHash(hash) : rings.nodeIndexForHash(hash, required);
        s.count(version, owner);
        if (r.shadow()) {
            FeatureRings<Member> other = s.featureRings(version == RingVersion.V1 ? RingVersion.V2 : RingVersion.V1);
            int otherHash = keyHash(other.ring(), text, bytes, crc);
            int otherOwner = required.isEmpty() ? other.ring().points().nodeIndexForHash(otherHash) : other.nodeIndexForHash(otherHash, required);
            boolean disagreed = otherOwner != owner; // node indices are shared by both rings of a snapshot
            metrics.shadow(disagreed);
            shadows.count(disagreed);
        }
        if (owner < 0) {
            return new Selection(null, version, List.of());
        }
        return new Selection(rings.ring().points().node(owner).payload(), version,
                new Candidates(rings, text != null ? text : bytes, required));
    }

    /**
     * With bounded loads ({@code quarkus.ketama.bounded-load.*}): the member that should serve the
     * UTF-8 bytes of {@code key} now, given the load each member carries. That is the first member of
     * the key's failover order (the owner, then each further distinct qualifying member, in the ring
     * version the migration gives the key and among the members with every required feature) whose
     * {@code load + 1 ≤ ⌈factor × (totalLoad + 1) × weight / W⌉}, {@code W} the weight of all members on
     * the ring: the owner while it has room, so a key spills only past a full owner, always to the same
     * next member. The bound is the whole cluster's, feature-restricted keys included. With
     * {@code enabled=false} (the default), or when no candidate has room (loads that do not add up
     * to {@code totalLoad}), the answer is the owner, as {@link #select(String, Set)} gives it.
     *
     * <p>The loads are whatever the application counts (requests under way, requests a second), one
     * unit per key placed; {@link BoundedLoads} is the same choice over a plain ring for code without
     * the extension. A call allocates its answer, the selection and a few small objects (not
     * allocation-free, unlike the core chooser).
     *
     * @param loads     the load a member carries now
     * @param totalLoad the load of all members together
     */
    public BoundedSelection selectBounded(String key, Set<String> requiredFeatures, ToLongFunction<Member> loads, long totalLoad) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(requiredFeatures, "requiredFeatures");
        Objects.requireNonNull(loads, "loads");
        Selection plain = select(key, requiredFeatures);
        if (!plain.found()) {
            return new BoundedSelection(plain, null, -1);
        }
        if (!bounded.enabled()) {
            return new BoundedSelection(plain, plain.owner(), 0);
        }
        RingSnapshot s = cluster.snapshot();
        BoundedLoads<Member> chooser = choosers(s).of(plain.version());
        KetamaRing<Member> ring = chooser.ring();
        if (requiredFeatures.isEmpty() && ring.style() == null) {
            // the plain ring's own walk, as the core chooser does it; the owner is the selection's
            RingPoints<Member> points = ring.points();
            int node = chooser.choose(Crc32.hashUtf8(key), i -> loads.applyAsLong(points.node(i).payload()), totalLoad);
            Member chosen = points.node(node).payload();
            int position = chosen.equals(plain.owner()) ? 0 : plain.candidates().indexOf(chosen);
            // -1: the rings were rebuilt since the selection; it stays with the selection's owner
            return position < 0 ? new BoundedSelection(plain, plain.owner(), 0) : new BoundedSelection(plain, chosen, position);
        }
        int position = 0;
        Iterator<Node<Member>> order = s.featureRings(plain.version()).failover(key, requiredFeatures);
        for (int i = 0; order.hasNext(); i++) {
            Node<Member> candidate = order.next();
            if (loads.applyAsLong(candidate.payload()) < chooser.boundOfWeight(candidate.weight(), totalLoad)) {
                position = i;
                break;
            }
        }
        if (position >= plain.candidates().size()) { // rebuilt since the selection: its owner
            position = 0;
        }
        return new BoundedSelection(plain, plain.candidates().get(position), position);
    }

    /** The bounded-load settings this member runs with. */
    public BoundedLoadSettings boundedLoad() {
        return bounded;
    }

    private Choosers choosers(RingSnapshot s) {
        Choosers c = choosers;
        if (c == null || c.snapshot() != s) {
            c = new Choosers(s, BoundedLoads.of(s.ring(RingVersion.V1), bounded.factor()),
                    BoundedLoads.of(s.ring(RingVersion.V2), bounded.factor()));
            choosers = c;
        }
        return c;
    }

    /** The key's hash on {@code ring}: CRC-32 for v1 and v2, the ring's own (MD5) for a memcached-style v1 ring. */
    private static int keyHash(KetamaRing<Member> ring, String text, byte[] bytes, int crc) {
        if (ring.style() == null) {
            return crc;
        }
        return text != null ? ring.hashKey(text) : ring.hashKey(bytes);
    }

    /** The rings in use now and what they were built from. */
    public RingSnapshot snapshot() {
        return cluster.snapshot();
    }

    /**
     * Whether this member serves: it said so, and its rings are built and contain it (the
     * readiness condition). False before start-up completes and from the start of a drain.
     */
    public boolean isReady() {
        return cluster.servingState() == ServingState.SERVING && snapshot().containsLocalMember();
    }

    /** This member's serving state, as it tells the others. */
    public ServingState servingState() {
        return cluster.servingState();
    }

    /**
     * The migration state this member applies: with {@code quarkus.ketama.migration.source=cluster}
     * (the default) the cluster's, the same on every member once a change has spread (compare the
     * generations).
     */
    public MigrationState migration() {
        return cluster.migration();
    }

    /** Where the migration state comes from. */
    public MigrationSource migrationSource() {
        return cluster.migrationSource();
    }

    /**
     * Sets the migration settings of the whole cluster (of this member alone with
     * {@code source=member}) on top of whatever state is current: the next generation, applied here
     * before this returns and by every other member within milliseconds. The data-centre allowlist
     * stays as each member configured it. Selections already under way finish with the settings
     * they started with. With {@code quarkus.ketama.migration.min-members} above 1, it returns once
     * that many members apply the change.
     *
     * @return the new state
     * @throws MigrationQuorumException when this member sees fewer members than that (nothing
     *                                  changed), or too few confirmed the change in time (not acknowledged)
     */
    public MigrationState updateMigration(MigrationSettings settings) {
        return updateMigration(settings, ANY_GENERATION, "application on " + MemberAddress.of(snapshot().localMember()));
    }

    /**
     * {@link #updateMigration(MigrationSettings)} as a compare-and-set: only if the state is still at
     * {@code expectedGeneration} (any generation: {@link #ANY_GENERATION}).
     *
     * @param changedBy who asks, for the log and {@link MigrationState#changedBy()}
     * @throws MigrationConflictException when another change came first; nothing was changed
     * @throws MigrationQuorumException   as {@link #updateMigration(MigrationSettings)} says
     */
    public MigrationState updateMigration(MigrationSettings settings, long expectedGeneration, String changedBy) {
        return cluster.updateMigration(Objects.requireNonNull(settings, "settings"), expectedGeneration,
                Objects.requireNonNull(changedBy, "changedBy"));
    }

    /**
     * Where each member of the cluster says it stands (serving state, applied migration
     * generation), in the cluster's member order, as this member last heard it: each other member's
     * entry as its last poll of the board read it (every 250 ms up to 100 members, 2.5 s at 1,000) or
     * an entry event carried it since. Never waits on a remote member; builds a list: not for the
     * request path.
     */
    public List<MemberStanding> memberStandings() {
        return cluster.standings();
    }
}
