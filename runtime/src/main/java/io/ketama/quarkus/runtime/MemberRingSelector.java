package io.ketama.quarkus.runtime;

import com.hazelcast.cluster.Member;
import io.ketama.core.BoundedLoads;
import io.ketama.core.Crc32;
import io.ketama.core.KetamaRing;
import io.ketama.core.FeatureRings;
import io.ketama.core.Node;
import io.ketama.core.RingPoints;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.BoundedLoadSettings;
import io.ketama.quarkus.BoundedSelection;
import io.ketama.quarkus.KetamaConfig;
import io.ketama.quarkus.MemberAddress;
import io.ketama.quarkus.MemberStanding;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSource;
import io.ketama.quarkus.MigrationState;
import io.ketama.quarkus.PublishedLoad;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.Selection;
import io.ketama.quarkus.ServingState;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * The extension's {@link RingSelector}: selections from the rings and migration state kept current
 * in the background ({@link RingsSource}): by {@link ClusterRings} on a member, by
 * {@link ClientRings} on a Hazelcast client ({@link MemberLifecycle} starts and stops either). The
 * contract is the interface's.
 */
@ApplicationScoped
class MemberRingSelector implements RingSelector {

    @Inject
    MemberLifecycle member;
    @Inject
    RingMetrics metrics;
    @Inject
    KetamaConfig config;

    /** Where the rings are kept current ({@link MemberLifecycle}); read once, then without a proxy per lookup. */
    private RingsSource cluster;
    /** Where shadow selections are counted for a ramp's brake: the rings' own counts. */
    private ShadowCounts shadows;

    /** {@code quarkus.ketama.bounded-load.*}, validated at start-up with every other key. */
    private BoundedLoadSettings bounded;
    /** The load board's reader, started by the first {@link #publishedLoad()}: null before. */
    private volatile PublishedLoads published;
    /** The bounded-load choosers of the snapshot read last (one per ring, made on first use after a rebuild). */
    private volatile Choosers choosers;

    private record Choosers(RingSnapshot snapshot, BoundedLoads<Member> v1, BoundedLoads<Member> v2) {
        BoundedLoads<Member> of(RingVersion version) {
            return version == RingVersion.V1 ? v1 : v2;
        }
    }

    /** For CDI, which injects the fields and calls {@link #init}. */
    MemberRingSelector() {
    }

    /** Without CDI: selections from {@code source} (a tool's member, a test's client). */
    MemberRingSelector(RingsSource source, RingMetrics metrics, BoundedLoadSettings bounded) {
        this.cluster = source;
        this.shadows = source.shadows();
        this.metrics = metrics;
        this.bounded = bounded;
    }

    @PostConstruct
    void init() {
        cluster = member.source();
        shadows = cluster.shadows();
        bounded = BoundedLoadSettings.of(config);
    }

    @Override
    public Selection select(String key) {
        return select(Objects.requireNonNull(key, "key"), null, Set.of());
    }

    @Override
    public Selection select(byte[] key) {
        return select(null, Objects.requireNonNull(key, "key"), Set.of());
    }

    @Override
    public Selection select(String key, Set<String> requiredFeatures) {
        return select(Objects.requireNonNull(key, "key"), null, Objects.requireNonNull(requiredFeatures, "requiredFeatures"));
    }

    @Override
    public Selection select(byte[] key, Set<String> requiredFeatures) {
        return select(null, Objects.requireNonNull(key, "key"), Objects.requireNonNull(requiredFeatures, "requiredFeatures"));
    }

    /** One of {@code text} and {@code bytes} is the key. */
    private Selection select(String text, byte[] bytes, Set<String> required) {
        int crc = text != null ? Crc32.hashUtf8(text) : Crc32.hash(bytes);
        ClusterRings.InUse inUse = cluster.inUse();
        RingSnapshot s = inUse.snapshot();
        MigrationSplit r = cluster.split();
        RingVersion version = r.versionFor(crc); // the split stays sticky by CRC-32 whatever the v1 ring's style
        FeatureRings<Member> rings = s.featureRings(version);
        int hash = keyHash(rings.ring(), text, bytes, crc);
        int owner = required.isEmpty() ? rings.ring().points().nodeIndexForHash(hash) : rings.nodeIndexForHash(hash, required);
        inUse.counts().count(version, owner);
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

    @Override
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
        RingSnapshot s = cluster.inUse().snapshot();
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

    @Override
    public PublishedLoad publishedLoad() {
        PublishedLoads p = published;
        if (p == null) {
            synchronized (this) {
                p = published;
                if (p == null) {
                    p = PublishedLoads.start(cluster.hazelcast());
                    published = p;
                }
            }
        }
        return p.current();
    }

    /** Stops reading the load board (a member stopping, a client follower closed). */
    @PreDestroy
    synchronized void close() {
        PublishedLoads p = published;
        if (p != null) {
            p.close();
        }
    }

    @Override
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

    @Override
    public RingSnapshot snapshot() {
        return cluster.inUse().snapshot();
    }

    @Override
    public boolean isReady() {
        return cluster.ready();
    }

    @Override
    public ServingState servingState() {
        return cluster.servingState();
    }

    @Override
    public MigrationState migration() {
        return cluster.migration();
    }

    @Override
    public MigrationSource migrationSource() {
        return cluster.migrationSource();
    }

    @Override
    public MigrationState updateMigration(MigrationSettings settings) {
        RingSnapshot s = snapshot();
        return updateMigration(settings, ANY_GENERATION, "application on "
                + (s.localMember() == null ? "a Hazelcast client" : MemberAddress.of(s.localMember())));
    }

    @Override
    public MigrationState updateMigration(MigrationSettings settings, long expectedGeneration, String changedBy) {
        return cluster.updateMigration(Objects.requireNonNull(settings, "settings"), expectedGeneration,
                Objects.requireNonNull(changedBy, "changedBy"));
    }

    @Override
    public List<MemberStanding> memberStandings() {
        return cluster.standings();
    }
}
