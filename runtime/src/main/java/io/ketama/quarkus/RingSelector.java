package io.ketama.quarkus;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.core.Crc32;
import io.ketama.core.KetamaRing;
import io.ketama.core.FeatureRings;
import io.ketama.core.RingVersion;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

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
 *       per key by the {@link MigrationSettings} of the member asked.</li>
 *   <li>Lookups never block and never see half a ring: rebuilds run on a background thread from
 *       the full member set after each membership change (coalesced within
 *       {@code quarkus.ketama.rebuild.coalesce-delay}) and are swapped in as one snapshot.</li>
 *   <li>A lookup allocates only its {@link Selection}; the failover candidates are computed when
 *       first read.</li>
 * </ul>
 */
@Startup
@ApplicationScoped
public class RingSelector {

    private static final Logger LOG = Logger.getLogger(RingSelector.class);
    private static final Duration START_TIMEOUT = Duration.ofMinutes(1);

    @Inject
    KetamaSettings settings;
    @Inject
    HazelcastInstance hazelcast;
    @Inject
    RingMetrics metrics;

    private volatile RingState state;
    private volatile MigrationRouter router;
    private RingBuilder builder;
    private CoalescingRebuilder rebuilder;
    private UUID listenerId;
    private Member localMember;
    private long generation;
    /** Excluded members already warned about (and counted); pruned to the cluster's members; rebuild thread only. */
    private final Set<UUID> warned = new HashSet<>();

    @PostConstruct
    void start() {
        try {
            localMember = hazelcast.getCluster().getLocalMember();
        } catch (UnsupportedOperationException e) {
            throw new IllegalStateException("quarkus-ketama needs a Hazelcast member; the HazelcastInstance bean is a client", e);
        }
        builder = new RingBuilder(settings.ring());
        router = new MigrationRouter(settings.migration(), settings.splitAllowedHere());
        metrics.bind(() -> state, () -> router);
        RingSnapshot empty = builder.build(List.of(), localMember, 0, "not built yet");
        state = new RingState(empty, metrics.counts(empty));
        rebuilder = new CoalescingRebuilder(settings.coalesceDelay(), this::rebuild);
        listenerId = hazelcast.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                rebuilder.request("member added " + event.getMember().getAddress());
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                rebuilder.request("member removed " + event.getMember().getAddress());
            }
        });
        rebuilder.runAndWait("start-up", START_TIMEOUT);
        LOG.infof("ketama: migration %s on data centre '%s'%s", settings.migration(), settings.datacenter(),
                settings.splitAllowedHere() ? "" : " (not in the split allowlist: v1 in split mode)");
    }

    @PreDestroy
    void stop() {
        if (listenerId != null) {
            try {
                hazelcast.getCluster().removeMembershipListener(listenerId);
            } catch (RuntimeException e) {
                LOG.debugf("membership listener not removed: %s", e);
            }
        }
        if (rebuilder != null) {
            rebuilder.close();
        }
    }

    /** Runs on the rebuild thread only. */
    private void rebuild(String reason) {
        Set<Member> members = hazelcast.getCluster().getMembers();
        RingSnapshot snapshot = builder.build(members, localMember, ++generation, reason);
        reportExcluded(snapshot, members);
        state = new RingState(snapshot, metrics.counts(snapshot));
        metrics.rebuilt(snapshot.buildTime());
        LOG.infof("ketama: rings rebuilt (generation %d, %d members, %d excluded, v1 %d points, v2 %d points, %.1f ms): %s",
                snapshot.generation(), snapshot.members().size(), snapshot.excluded().size(),
                snapshot.rings().get(RingVersion.V1).points(), snapshot.rings().get(RingVersion.V2).points(),
                snapshot.buildTime().toNanos() / 1e6, reason);
    }

    /** One warning and one count per excluded member, not per rebuild. */
    private void reportExcluded(RingSnapshot snapshot, Set<Member> members) {
        Set<UUID> present = new HashSet<>();
        for (Member m : members) {
            present.add(m.getUuid());
        }
        warned.retainAll(present);
        for (ExcludedMember e : snapshot.excluded()) {
            if (warned.add(e.member().getUuid())) {
                metrics.memberExcluded();
                LOG.warnf("ketama: member %s (%s) is left out of the rings: %s", e.member().getAddress(),
                        e.member().getUuid(), e.reason());
            }
        }
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
        RingState s = state;
        MigrationRouter r = router;
        RingVersion version = r.versionFor(crc); // the split stays sticky by CRC-32 whatever the v1 ring's style
        FeatureRings<Member> rings = s.rings(version);
        int hash = keyHash(rings.ring(), text, bytes, crc);
        int owner = required.isEmpty() ? rings.ring().nodeIndexForHash(hash) : rings.nodeIndexForHash(hash, required);
        s.count(version, owner);
        if (r.shadow()) {
            FeatureRings<Member> other = s.rings(version == RingVersion.V1 ? RingVersion.V2 : RingVersion.V1);
            int otherHash = keyHash(other.ring(), text, bytes, crc);
            int otherOwner = required.isEmpty() ? other.ring().nodeIndexForHash(otherHash) : other.nodeIndexForHash(otherHash, required);
            metrics.shadow(otherOwner != owner); // node indices are shared by both rings of a snapshot
        }
        if (owner < 0) {
            return new Selection(null, version, List.of());
        }
        return new Selection(rings.ring().node(owner).payload(), version,
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
        return state.snapshot;
    }

    /** Whether the rings are built and contain this member (the readiness condition). */
    public boolean isReady() {
        return state.snapshot.containsLocalMember();
    }

    /** The migration settings in use now. */
    public MigrationSettings migration() {
        return router.settings();
    }

    /**
     * Changes this member's migration settings from now on (configuration gives the start-up
     * value). The data-centre allowlist stays as configured. Selections already under way finish
     * with the settings they started with.
     */
    public void updateMigration(MigrationSettings settings) {
        Objects.requireNonNull(settings, "settings");
        MigrationRouter previous = router;
        router = new MigrationRouter(settings, this.settings.splitAllowedHere());
        LOG.infof("ketama: migration changed from %s to %s", previous.settings(), settings);
    }
}
