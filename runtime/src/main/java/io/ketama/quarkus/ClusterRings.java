package io.ketama.quarkus;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.core.RingVersion;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A member's part in the cluster, without CDI: it keeps the rings current (rebuilt from the
 * members that are in the cluster and serving, see {@link MembershipWatcher}), follows the
 * cluster's {@link MigrationState} ({@link ClusterMigration}), says where this member stands
 * ({@link MemberBoard}, {@link ServingGate}) and drives migration ramps ({@link MigrationRamp}).
 * {@link RingSelector} answers selections from what this keeps. {@link #startOn} runs the same on a
 * Hazelcast member of a process without Quarkus (a tool, a test's extra members).
 *
 * <p>Start-up order: this member says it is starting, adopts the cluster's migration state, starts
 * watching, and builds its first rings before {@link #start} returns; it joins the others' rings
 * only at {@link #open}.
 */
public final class ClusterRings implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ClusterRings.class);
    private static final Duration START_TIMEOUT = Duration.ofMinutes(1);

    /**
     * What the rings are built and routed with.
     *
     * @param allowlist the addresses allowed on the rings, or null for every member
     */
    record Settings(RingSettings ring, Duration coalesceDelay, MigrationSettings migration, MigrationSource source,
                    boolean splitAllowedHere, MemberAllowlist allowlist) {
        Settings {
            Objects.requireNonNull(ring, "ring");
            Objects.requireNonNull(coalesceDelay, "coalesceDelay");
            Objects.requireNonNull(migration, "migration");
            Objects.requireNonNull(source, "source");
        }
    }

    private final HazelcastInstance hazelcast;
    private final Settings settings;
    private final RingMetrics metrics;
    private final Member localMember;
    private final RingBuilder builder;
    private final Set<UUID> warned = new HashSet<>();
    private volatile RingSnapshot snapshot;
    private volatile MigrationSplit split;
    private CoalescingRebuilder rebuilder;
    private MemberBoard board;
    private MembershipWatcher watcher;
    private ClusterMigration migration;
    private ServingGate gate;
    private MigrationRamp ramp;
    private long generation;

    ClusterRings(HazelcastInstance hazelcast, Settings settings, RingMetrics metrics) {
        this.hazelcast = Objects.requireNonNull(hazelcast, "hazelcast");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        try {
            this.localMember = hazelcast.getCluster().getLocalMember();
        } catch (UnsupportedOperationException e) {
            throw new IllegalStateException("quarkus-ketama needs a Hazelcast member; the HazelcastInstance bean is a client", e);
        }
        this.builder = new RingBuilder(settings.ring());
        RingSnapshot empty = builder.build(List.of(), localMember, 0, "not built yet");
        this.snapshot = empty.counted(metrics.counts(empty));
        this.split = new MigrationSplit(settings.migration(), settings.splitAllowedHere());
    }

    /**
     * Runs a member's part in the cluster on {@code hazelcast}, whose configuration should carry the
     * {@link MemberAttributes} and, to be placed only once it serves, {@link MemberAttributes#gate};
     * returns once the cluster's migration state is adopted and the first rings are built. Call
     * {@link #open()} when the member is ready to serve, {@link #drain} before it stops, and
     * {@link #close()} at the end.
     *
     * @param configured the migration settings a new cluster starts with (with {@code source=cluster})
     */
    public static ClusterRings startOn(HazelcastInstance hazelcast, RingSettings ring, MigrationSettings configured,
                                       MigrationSource source, Duration coalesceDelay) {
        ClusterRings rings = new ClusterRings(hazelcast, new Settings(ring, coalesceDelay, configured, source, true, null),
                RingMetrics.NONE);
        rings.start(() -> new MigrationRamp.Signals(0, 0, 0, 0));
        return rings;
    }

    /**
     * Joins the cluster's bookkeeping and builds the first rings (without this member: it is not
     * serving yet).
     *
     * @param rampSignals what a migration ramp's brake reads
     */
    void start(Supplier<MigrationRamp.Signals> rampSignals) {
        rebuilder = new CoalescingRebuilder(settings.coalesceDelay(), this::rebuild);
        board = new MemberBoard(hazelcast, rebuilder::request);
        board.start(new MemberStatus(ServingState.STARTING, 0, Set.of()));
        migration = new ClusterMigration(hazelcast, settings.source(), this::migrationApplied, Clock.systemUTC());
        migration.start(settings.migration());
        watcher = new MembershipWatcher(hazelcast, board, settings.allowlist(), rebuilder::request);
        watcher.start();
        gate = new ServingGate(board, localMember, () -> hazelcast.getCluster().getMembers(), () -> snapshot);
        ramp = new MigrationRamp(migration, rampSignals, Clock.systemUTC());
        rebuilder.runAndWait("start-up", START_TIMEOUT);
    }

    /** Called by {@link ClusterMigration} under its lock, in order: swap the split, report the generation. */
    private void migrationApplied(MigrationState s) {
        split = new MigrationSplit(s.settings(), settings.splitAllowedHere());
        if (board != null) {
            board.update(status -> status.withGeneration(s.generation()));
        }
    }

    /** Runs on the rebuild thread only. */
    private void rebuild(String reason) {
        MembershipWatcher.RingMembers candidates = watcher == null
                ? new MembershipWatcher.RingMembers(List.of(), List.of()) : watcher.ringMembers();
        RingSnapshot built = builder.build(candidates.members(), candidates.refused(), localMember, ++generation, reason);
        List<Member> members = new ArrayList<>(candidates.members());
        candidates.refused().forEach(e -> members.add(e.member()));
        reportExcluded(built, members);
        RingSnapshot snapshot = built.counted(metrics.counts(built));
        this.snapshot = snapshot;
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
    MigrationSplit split() {
        return split;
    }

    /** The migration state this member applies. */
    public MigrationState migration() {
        return migration.current();
    }

    /** The rings in use now. */
    public RingSnapshot snapshot() {
        return snapshot;
    }

    MigrationSource migrationSource() {
        return migration.source();
    }

    /** See {@link RingSelector#updateMigration(MigrationSettings, long, String)}. */
    public MigrationState updateMigration(MigrationSettings next, long expectedGeneration, String who) {
        return migration.update(next, expectedGeneration, who);
    }

    /** See {@link ClusterMigration#update(UnaryOperator, long, String)}. */
    MigrationState changeMigration(UnaryOperator<MigrationSettings> change, long expectedGeneration, String who) {
        return migration.update(change, expectedGeneration, who);
    }

    MigrationRamp ramp() {
        return ramp;
    }

    /** Where each member of the cluster says it stands, in the cluster's member order. A remote read. */
    List<MemberStanding> standings() {
        Set<Member> members = hazelcast.getCluster().getMembers();
        Map<UUID, MemberStatus> statuses = board.read(members);
        List<MemberStanding> out = new ArrayList<>(members.size());
        for (Member m : members) {
            MemberStatus s = statuses.get(m.getUuid());
            out.add(new MemberStanding(m, MemberAddress.of(m), s == null ? null : s.state(), s == null ? 0 : s.migrationGeneration()));
        }
        return out;
    }


    /** This member's serving state. */
    public ServingState servingState() {
        return board.mine().state();
    }

    /** Says this member is ready to serve: the others place it on their rings. */
    public void open() {
        gate.open();
    }

    /**
     * Takes this member off every member's rings: says it is draining, waits (at most
     * {@code timeout}) until its own rings and those of every other member running this code no
     * longer hold it, then keeps serving for {@code quietPeriod} (when anyone had to let go).
     */
    public RingsLeft drain(Duration timeout, Duration quietPeriod) throws InterruptedException {
        if (ramp != null && ramp.status() != null && ramp.status().phase() == MigrationRamp.Phase.RUNNING) {
            ramp.cancel("this member's drain");
        }
        ServingGate.DrainReport report = gate.drain(timeout, quietPeriod);
        return new RingsLeft(report.took(), report.confirmed(), report.unconfirmed());
    }

    /** Stops following the cluster (the Hazelcast member stays up). */
    @Override
    public void close() {
        for (AutoCloseable part : new AutoCloseable[] {ramp, watcher, migration, rebuilder, board}) {
            if (part != null) {
                try {
                    part.close();
                } catch (Exception e) {
                    LOG.debugf("ketama: closing %s: %s", part.getClass().getSimpleName(), e);
                }
            }
        }
    }
}
