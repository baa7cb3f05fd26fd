package io.ketama.quarkus.runtime;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.ExcludedMember;
import io.ketama.quarkus.ForwardOutcomes;
import io.ketama.quarkus.MemberAddress;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.MemberInfo;
import io.ketama.quarkus.MemberStanding;
import io.ketama.quarkus.MigrationQuorumException;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSource;
import io.ketama.quarkus.MigrationState;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.ServingState;
import io.ketama.quarkus.RingsLeft;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A member's part in the cluster, without CDI: it keeps the rings current (rebuilt from the
 * members that are in the cluster and serving, see {@link MembershipWatcher}), follows the
 * cluster's {@link MigrationState} ({@link ClusterMigration}), says where this member stands
 * ({@link MemberBoard}, {@link ServingGate}) and drives migration ramps ({@link MigrationRamp}).
 * {@link MemberRingSelector} answers selections from what this keeps. {@link #startOn} runs the same on a
 * Hazelcast member of a process without Quarkus (a tool, a test's extra members).
 *
 * <p>Start-up order: this member says it is starting, adopts the cluster's migration state, starts
 * watching, and builds its first rings before {@link #start} returns; it joins the others' rings
 * only at {@link #open}.
 *
 * <p>The selector reads it through {@link RingsSource}. Other modules' tests run it on plain members
 * through {@code MemberPart}, a fixture of this module's test jar.
 */
final class ClusterRings implements RingsSource, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ClusterRings.class);
    private static final Duration START_TIMEOUT = Duration.ofMinutes(1);
    /** How long a member waits to offer its configuration again when the cluster could not adopt it. */
    static final Duration OFFER_RETRY = Duration.ofSeconds(5);

    /**
     * What the rings are built and routed with.
     *
     * @param allowlist         the addresses allowed on the rings, or null for every member
     * @param minMembers        how many members a migration change needs ({@link MigrationQuorum}); empty:
     *                          a majority of the members the cluster expects (the learned quorum)
     * @param forgetFailedAfter how long a member dropped by failure keeps counting toward the cluster's
     *                          expected size ({@link ClusterRoster})
     * @param offered           the configuration this member offers the cluster once it is ready
     *                          ({@link ClusterMigration#offerConfiguration}); null: none (a tool's member only seeds)
     */
    record Settings(RingSettings ring, Duration coalesceDelay, MigrationSettings migration, MigrationSource source,
                    boolean splitAllowedHere, MemberAllowlist allowlist, OptionalInt minMembers, Duration forgetFailedAfter,
                    ConfiguredMigration offered) {
        Settings {
            Objects.requireNonNull(ring, "ring");
            Objects.requireNonNull(coalesceDelay, "coalesceDelay");
            Objects.requireNonNull(migration, "migration");
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(minMembers, "minMembers");
            Objects.requireNonNull(forgetFailedAfter, "forgetFailedAfter");
            if (minMembers.isPresent() && minMembers.getAsInt() < 1) {
                throw new IllegalArgumentException("minMembers must be >= 1, was " + minMembers.getAsInt());
            }
        }
    }

    /** How long a failed member keeps counting where nothing else is said: {@code quarkus.ketama.migration.forget-failed-after}'s default. */
    static final Duration FORGET_FAILED_AFTER = Duration.ofHours(1);

    private final HazelcastInstance hazelcast;
    private final Settings settings;
    private final RingMetrics metrics;
    private final RingBuilder builder;
    private final Set<UUID> warned = new HashSet<>();
    /** The rings in use and their members' selection counters, swapped as one. */
    private volatile InUse inUse;
    private volatile MigrationSplit split;
    private final CoalescingRebuilder rebuilder;
    private final MemberBoard board;
    private final ClusterMigration migration;
    private final ClusterRoster roster;
    private final MigrationQuorum quorum;
    private final MembershipWatcher watcher;
    private final ServingGate gate;
    private final MigrationRamp ramp;
    /** The shadow selections made on these rings, for the ramp's brake. */
    private final ShadowCounts shadows = new ShadowCounts();
    /**
     * Whether {@link #start} has started the watcher. A rebuild the board's first events ask for
     * before then builds rings of no members (it does not read members the watcher would not yet
     * report changes of); the start-up rebuild that follows reads them all.
     */
    private volatile boolean watching;
    private ScheduledExecutorService offers;
    /** What became of this member's configuration when it offered it; null until it has. */
    private volatile ConfigurationRollout.Decision offered;
    private long generation;
    /** What the rings in use were built from (rebuild thread only); null before the first rebuild. */
    private BuiltFrom builtFrom;

    /**
     * The inputs of a rebuild. Two events often report one change (a board entry's listener and the
     * board's next poll, a membership event and the serving state it brings): a rebuild from the same
     * inputs would make the same rings, so it is skipped, and a quiet cluster's ring generation stays
     * still (a generation that keeps moving is what a rebuild loop looks like from outside).
     */
    private record BuiltFrom(List<Member> members, List<ExcludedMember> refused, UUID local) {
    }

    /**
     * Makes the parts, in the order each needs the one before; nothing joins the cluster's
     * bookkeeping or runs until {@link #start}.
     *
     * @param forwardOutcomes how the application's forwards fare, for a migration ramp's brake (a
     *                        supplier of null: the application reports none)
     */
    ClusterRings(HazelcastInstance hazelcast, Settings settings, RingMetrics metrics, Supplier<ForwardOutcomes> forwardOutcomes) {
        this.hazelcast = Objects.requireNonNull(hazelcast, "hazelcast");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        Member localMember;
        try {
            localMember = hazelcast.getCluster().getLocalMember();
        } catch (UnsupportedOperationException e) {
            throw new IllegalStateException("quarkus-ketama needs a Hazelcast member; the HazelcastInstance bean is a client", e);
        }
        this.builder = new RingBuilder(settings.ring());
        RingSnapshot empty = builder.build(List.of(), localMember, 0, "not built yet");
        this.inUse = new InUse(empty, metrics.counts(empty));
        this.split = new MigrationSplit(settings.migration(), settings.splitAllowedHere());
        // the callbacks below run only once start() has started the part that calls them
        this.rebuilder = new CoalescingRebuilder(settings.coalesceDelay(), this::rebuild);
        this.board = new MemberBoard(hazelcast, rebuilder::request);
        this.roster = new ClusterRoster(hazelcast, settings.forgetFailedAfter(), Clock.systemUTC(), FollowedMap.daemon("ketama-roster"));
        this.quorum = settings.minMembers().isPresent()
                ? MigrationQuorum.explicit(settings.minMembers().getAsInt(), roster::current, () -> hazelcast.getCluster().getMembers(),
                        this::appliedGenerations)
                : MigrationQuorum.learned(roster::current, () -> hazelcast.getCluster().getMembers(), this::appliedGenerations);
        this.migration = new ClusterMigration(hazelcast, settings.source(), quorum, this::migrationApplied, Clock.systemUTC());
        migration.onChange(s -> metrics.migrationChanged(s.origin()));
        this.watcher = new MembershipWatcher(hazelcast, board, settings.allowlist(), rebuilder::request);
        this.gate = new ServingGate(board, () -> hazelcast.getCluster().getMembers(), () -> inUse.snapshot());
        Objects.requireNonNull(forwardOutcomes, "forwardOutcomes");
        this.ramp = new MigrationRamp(migration, () -> MigrationRamp.Signals.of(shadows, forwardOutcomes.get()), Clock.systemUTC());
    }

    /**
     * Runs a member's part in the cluster on {@code hazelcast}, whose configuration should carry the
     * {@link MemberAttributes} and, to be placed only once it serves, {@link MemberAttributes#gate};
     * returns once the cluster's migration state is adopted and the first rings are built. Call
     * {@link #open()} when the member is ready to serve, {@link #drain} before it stops, and
     * {@link #close()} at the end.
     *
     * A migration change needs a majority of the members the cluster expects, as with the extension's
     * defaults (the learned quorum, {@link MigrationQuorum}).
     *
     * @param configured the migration settings a new cluster starts with (with {@code source=cluster})
     */
    static ClusterRings startOn(HazelcastInstance hazelcast, RingSettings ring, MigrationSettings configured,
                                       MigrationSource source, Duration coalesceDelay) {
        return start(hazelcast, new Settings(ring, coalesceDelay, configured, source, true, null, OptionalInt.empty(),
                FORGET_FAILED_AFTER, null));
    }

    /**
     * {@link #startOn(HazelcastInstance, RingSettings, MigrationSettings, MigrationSource, Duration)} where a
     * migration change needs {@code minMembers} members ({@code quarkus.ketama.migration.min-members}).
     */
    static ClusterRings startOn(HazelcastInstance hazelcast, RingSettings ring, MigrationSettings configured,
                                       MigrationSource source, Duration coalesceDelay, int minMembers) {
        return start(hazelcast, new Settings(ring, coalesceDelay, configured, source, true, null, OptionalInt.of(minMembers),
                FORGET_FAILED_AFTER, null));
    }

    /** Runs a member's part in the cluster on {@code hazelcast} with {@code settings}, without metrics; see {@link #startOn}. */
    static ClusterRings start(HazelcastInstance hazelcast, Settings settings) {
        ClusterRings rings = new ClusterRings(hazelcast, settings, RingMetrics.NONE, () -> null);
        rings.start();
        return rings;
    }

    /**
     * Joins the cluster's bookkeeping and builds the first rings (without this member: it is not
     * serving yet).
     */
    void start() {
        board.start(new MemberStatus(ServingState.STARTING, 0, Set.of()));
        roster.start(); // before the state: a change this member makes counts it
        migration.start(settings.migration());
        watching = true;
        watcher.start();
        rebuilder.runAndWait("start-up", START_TIMEOUT);
    }

    /** Called by {@link ClusterMigration} under its lock, in order: swap the split, report the generation. */
    private void migrationApplied(MigrationState s) {
        split = new MigrationSplit(s.settings(), settings.splitAllowedHere());
        board.update(status -> status.withGeneration(s.generation()));
    }

    /** The migration generation each of {@code members} says it applies (a bounded read of the board). */
    private Map<UUID, Long> appliedGenerations(java.util.Collection<Member> members) {
        Map<UUID, Long> out = new java.util.HashMap<>();
        board.read(members).forEach((id, status) -> out.put(id, status.migrationGeneration()));
        return out;
    }

    /** Runs on the rebuild thread only. */
    private void rebuild(String reason) {
        MembershipWatcher.RingMembers candidates = watching
                ? watcher.ringMembers() : new MembershipWatcher.RingMembers(List.of(), List.of());
        // this member as it is now: a split-brain merge gives it a new UUID
        Member localMember = hazelcast.getCluster().getLocalMember();
        BuiltFrom inputs = new BuiltFrom(List.copyOf(candidates.members()), List.copyOf(candidates.refused()), localMember.getUuid());
        if (inputs.equals(builtFrom)) {
            LOG.debugf("ketama: rings not rebuilt: the members and their states are those of generation %d (%s)", generation, reason);
            return;
        }
        RingSnapshot built = builder.build(candidates.members(), candidates.refused(), localMember, ++generation, reason);
        List<Member> members = new ArrayList<>(candidates.members());
        candidates.refused().forEach(e -> members.add(e.member()));
        reportExcluded(built, members);
        RingSnapshot snapshot = built;
        this.inUse = new InUse(built, metrics.counts(built));
        builtFrom = inputs;
        metrics.rebuilt(snapshot.buildTime());
        Set<UUID> onRings = new HashSet<>();
        for (MemberInfo m : snapshot.members()) {
            onRings.add(m.member().getUuid());
        }
        board.update(s -> s.withRingMembers(onRings));
        LOG.infof("ketama: rings rebuilt (generation %d, %d members, %d excluded, v1 %d points, v2 %d points, %.1f ms): %s",
                snapshot.generation(), snapshot.members().size(), snapshot.excluded().size(),
                snapshot.rings().get(RingVersion.V1).points(), snapshot.rings().get(RingVersion.V2).points(),
                snapshot.buildTime().toNanos() / 1e6, reason);
    }

    /** One warning and one count per excluded member, not per rebuild. */
    private void reportExcluded(RingSnapshot snapshot, List<Member> members) {
        Set<UUID> present = new HashSet<>();
        for (Member m : members) {
            present.add(m.getUuid());
        }
        warned.retainAll(present);
        for (ExcludedMember e : snapshot.excluded()) {
            if (warned.add(e.member().getUuid())) {
                metrics.memberExcluded();
                LOG.warnf("ketama: member %s (%s) is left out of the rings: %s", MemberAddress.of(e.member()),
                        e.member().getUuid(), e.reason());
            }
        }
    }

    /** Which ring serves which key, in force now. */
    @Override
    public MigrationSplit split() {
        return split;
    }

    /** The migration state this member applies. */
    @Override
    public MigrationState migration() {
        return migration.current();
    }

    /** The rings in use now. */
    public RingSnapshot snapshot() {
        return inUse.snapshot();
    }

    /**
     * The rings in use now with their members' selection counters (resolved once per rebuild, so a
     * lookup counts without a map lookup).
     */
    @Override
    public InUse inUse() {
        return inUse;
    }

    /** A snapshot and the counters of its selections, read by a lookup in one volatile read. */
    record InUse(RingSnapshot snapshot, RingMetrics.SelectionCounts counts) {
    }

    @Override
    public MigrationSource migrationSource() {
        return migration.source();
    }

    /** See {@link RingSelector#updateMigration(MigrationSettings, long, String)}. */
    @Override
    public MigrationState updateMigration(MigrationSettings next, long expectedGeneration, String who) {
        return migration.update(next, expectedGeneration, who);
    }

    MigrationRamp ramp() {
        return ramp;
    }

    /** The cluster's migration state as this member follows and changes it (the admin plane's changes, the adopted configuration). */
    ClusterMigration migrations() {
        return migration;
    }

    /** How many members a migration change needs, and where that stands now ({@link MigrationQuorum#status}). */
    MigrationQuorum quorum() {
        return quorum;
    }

    /** The members the cluster expects ({@link ClusterRoster#current}), and an operator's removal of a failed one. */
    ClusterRoster roster() {
        return roster;
    }

    /** Where {@link MemberRingSelector} counts the shadow selections it makes on these rings. */
    @Override
    public ShadowCounts shadows() {
        return shadows;
    }

    @Override
    public HazelcastInstance hazelcast() {
        return hazelcast;
    }

    /**
     * Where each member of the cluster says it stands, in the cluster's member order, as the board
     * last heard it ({@link MemberBoard#known}): no remote read, so the admin plane answers while the
     * owner of some entry is paused or cut off (a remote read stalled a second on each such owner).
     */
    @Override
    public List<MemberStanding> standings() {
        Set<Member> members = hazelcast.getCluster().getMembers();
        Map<UUID, MemberStatus> statuses = board.known(members);
        List<MemberStanding> out = new ArrayList<>(members.size());
        for (Member m : members) {
            MemberStatus s = statuses.get(m.getUuid());
            out.add(new MemberStanding(m, MemberAddress.of(m), s == null ? null : s.state(), s == null ? 0 : s.migrationGeneration()));
        }
        return out;
    }


    @Override
    public boolean ready() {
        return servingState() == ServingState.SERVING && snapshot().containsLocalMember();
    }

    /** This member's serving state. */
    @Override
    public ServingState servingState() {
        return board.mine().state();
    }

    /**
     * Says this member is ready to serve: the others place it on their rings. Then, off this thread,
     * offers this member's configuration to the cluster ({@link Settings#offered()}).
     */
    public void open() {
        gate.open();
        if (settings.offered() != null && settings.source() == MigrationSource.CLUSTER) {
            offers = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "ketama-configuration");
                t.setDaemon(true);
                return t;
            });
            offers.execute(this::offerConfiguration);
        }
    }

    /** Offers this member's configuration; tried again while the cluster has too few members to adopt it. */
    private void offerConfiguration() {
        try {
            offered = migration.offerConfiguration(settings.offered(),
                    ConfigurationRollout.identity(hazelcast.getCluster().getLocalMember()), this::publishedConfigurations);
        } catch (HazelcastInstanceNotActiveException e) {
            LOG.debug("ketama: configuration not offered: Hazelcast is stopping");
        } catch (RuntimeException e) { // MigrationQuorumException included
            LOG.warnf("ketama: this member's configured migration %s was not offered to the cluster: %s; offering it again in %s",
                    settings.offered(), e.getMessage(), OFFER_RETRY);
            try {
                offers.schedule(this::offerConfiguration, OFFER_RETRY.toMillis(), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException closing) {
                LOG.debug("ketama: configuration not offered again: closing");
            }
        }
    }

    /** What each member in the cluster publishes its configuration asks for, by ring identity (empty: unknown). */
    private Map<String, String> publishedConfigurations() {
        Map<String, String> out = new java.util.HashMap<>();
        for (Member m : hazelcast.getCluster().getMembers()) {
            out.put(ConfigurationRollout.identity(m), ConfiguredMigration.publishedBy(m));
        }
        return out;
    }

    /** What became of this member's configuration when it offered it once ready, or null until it has (or with none to offer). */
    ConfigurationRollout.Decision offerDecision() {
        return offered;
    }


    /**
     * Takes this member off every member's rings: says it is draining, waits (at most
     * {@code timeout}) until its own rings and those of every other member running this code no
     * longer hold it, then keeps serving for {@code quietPeriod} (when anyone had to let go).
     */
    public RingsLeft drain(Duration timeout, Duration quietPeriod) throws InterruptedException {
        if (ramp.status() != null && ramp.status().phase().live()) {
            ramp.cancel("this member's drain");
        }
        ServingGate.DrainReport report = gate.drain(timeout, quietPeriod);
        roster.leave(ClusterRoster.CHANGE_TIMEOUT); // a graceful stop: no longer expected
        return new RingsLeft(report.took(), report.confirmed(), report.unconfirmed());
    }

    /** Stops following the cluster (the Hazelcast member stays up). */
    @Override
    public void close() {
        if (offers != null) {
            offers.shutdownNow();
        }
        roster.leave(ClusterRoster.CHANGE_TIMEOUT); // closed without a drain (a tool, a test): still an orderly stop
        for (AutoCloseable part : new AutoCloseable[] {ramp, watcher, migration, roster, rebuilder, board}) {
            try {
                part.close();
            } catch (Exception e) {
                LOG.debugf("ketama: closing %s: %s", part.getClass().getSimpleName(), e);
            }
        }
    }
}
