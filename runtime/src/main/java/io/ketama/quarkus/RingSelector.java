package io.ketama.quarkus;

import com.hazelcast.cluster.Member;
import io.ketama.core.Crc32;
import io.ketama.core.KetamaRing;
import io.ketama.core.FeatureRings;
import io.ketama.core.RingVersion;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

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
 *       (see {@link MembershipWatcher}, {@link RingsLeft}).</li>
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

    @Inject
    MemberLifecycle member;
    @Inject
    RingMetrics metrics;

    /** Where the rings are kept current ({@link MemberLifecycle}); read once, then without a proxy per lookup. */
    private ClusterRings cluster;

    @PostConstruct
    void init() {
        cluster = member.rings();
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
            member.shadowSelection(disagreed);
        }
        if (owner < 0) {
            return new Selection(null, version, List.of());
        }
        return new Selection(rings.ring().points().node(owner).payload(), version,
                new Candidates(rings, text != null ? text : bytes, required));
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
     * they started with.
     *
     * @return the new state
     */
    public MigrationState updateMigration(MigrationSettings settings) {
        return updateMigration(settings, ClusterMigration.ANY_GENERATION, "application on " + MemberAddress.of(snapshot().localMember()));
    }

    /**
     * {@link #updateMigration(MigrationSettings)} as a compare-and-set: only if the state is still at
     * {@code expectedGeneration} (any generation: -1).
     *
     * @param changedBy who asks, for the log and {@link MigrationState#changedBy()}
     * @throws MigrationConflictException when another change came first; nothing was changed
     */
    public MigrationState updateMigration(MigrationSettings settings, long expectedGeneration, String changedBy) {
        return cluster.updateMigration(Objects.requireNonNull(settings, "settings"), expectedGeneration,
                Objects.requireNonNull(changedBy, "changedBy"));
    }

    /**
     * {@link #updateMigration(MigrationSettings, long, String)} with the settings {@code change}
     * makes of those current when it is applied (the admin plane's change of some fields).
     */
    MigrationState changeMigration(UnaryOperator<MigrationSettings> change, long expectedGeneration, String changedBy) {
        return cluster.changeMigration(Objects.requireNonNull(change, "change"), expectedGeneration,
                Objects.requireNonNull(changedBy, "changedBy"));
    }

    /**
     * Where each member of the cluster says it stands (serving state, applied migration
     * generation), in the cluster's member order. A remote read: not for the request path.
     */
    public List<MemberStanding> memberStandings() {
        return cluster.standings();
    }
}
