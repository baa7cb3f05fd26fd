package io.ketama.quarkus.runtime;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import io.ketama.quarkus.MemberAddress;
import io.ketama.quarkus.MemberStanding;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSource;
import io.ketama.quarkus.MigrationState;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.ServingState;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A Hazelcast client's view of the rings: the rings every member builds, built here from what the
 * members publish, so an application that talks to the cluster as a client answers
 * {@code RingSelector} exactly as a member does. It follows, and never writes:
 * <ul>
 *   <li>the member list and each member's attributes (weight, features, node id: the ring
 *       identities), as Hazelcast's client keeps them;</li>
 *   <li>the member board ({@value MemberBoard#MAP}): a gated member is placed once it says it
 *       serves, and taken off when it drains, as on the members ({@link MembershipWatcher#belongsOnRings});</li>
 *   <li>the cluster's migration state ({@value ClusterMigration#MAP}), its generation included.</li>
 * </ul>
 * A client is on no ring, has no board entry and counts toward no quorum; it refuses migration
 * changes (make them on a member, or through the admin plane of one).
 *
 * <h2>How soon</h2>
 * Each of the three reaches the rings by an event (Hazelcast's membership event, an entry event of
 * the board or of the migration map), at most {@link #COALESCE} later for a rebuild; where an event
 * is lost, a re-read every {@link #REREAD} catches up. So a change reaches the client's rings within
 * {@code REREAD + COALESCE + build time} (1.05 s and a few ms) at the worst, and within an event's
 * delivery plus {@code COALESCE} (tens of ms on a LAN) when events flow.
 *
 * <h2>Losing the cluster</h2>
 * While the client is disconnected it keeps the rings it last built (its members may still serve:
 * a client's link failing says nothing about them) and says so: {@link #connected()} is false, the
 * readiness check reports it, and nothing is rebuilt from the client's empty member list.
 */
final class ClientRings implements RingsSource, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ClientRings.class);

    /** How often the board and the migration state are read again, for events that were lost. */
    static final Duration REREAD = Duration.ofSeconds(1);
    /** Events within this are one rebuild. */
    static final Duration COALESCE = Duration.ofMillis(50);
    private static final Duration START_TIMEOUT = Duration.ofMinutes(1);
    /** The most a rebuild waits for the board entries of members not heard from yet. */
    static final Duration UNHEARD_READ = Duration.ofMillis(500);

    private final HazelcastInstance client;
    private final RingMetrics metrics;
    private final boolean splitAllowedHere;
    private final RingBuilder builder;
    private final CoalescingRebuilder rebuilder;
    private final FollowedMap board;
    private final FollowedMap migrationMap;
    private final ShadowCounts shadows = new ShadowCounts();
    /** Each member's board entry as last read or heard, by member UUID. */
    private final Map<UUID, MemberStatus> statuses = new ConcurrentHashMap<>();
    private volatile ClusterRings.InUse inUse;
    private volatile MigrationState migration;
    /** Whether {@link #migration} was read from the cluster (else it is this client's configuration). */
    private boolean fromCluster;
    private volatile MigrationSplit split;
    private volatile boolean connected = true;
    private volatile UUID membershipListener;
    private volatile UUID lifecycleListener;
    /** Rebuild thread only. */
    private long generation;
    /** What the rings in use were built from (rebuild thread only). */
    private Map<UUID, Boolean> builtFrom;

    /**
     * @param configured the migration settings applied until the cluster's state is read (a cluster
     *                   that has none yet: what its first member will seed is unknown here)
     */
    ClientRings(HazelcastInstance client, RingSettings ring, MigrationSettings configured, boolean splitAllowedHere, RingMetrics metrics) {
        this.client = Objects.requireNonNull(client, "client");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.splitAllowedHere = splitAllowedHere;
        this.builder = new RingBuilder(ring);
        RingSnapshot empty = builder.build(List.of(), null, 0, "not built yet");
        this.inUse = new ClusterRings.InUse(empty, metrics.counts(empty));
        this.migration = new MigrationState(Objects.requireNonNull(configured, "configured"), 1,
                MigrationState.BY_CONFIGURATION + "this client (the cluster's state not read yet)", java.time.Instant.now());
        this.split = new MigrationSplit(configured, splitAllowedHere);
        this.rebuilder = new CoalescingRebuilder(COALESCE, this::rebuild);
        this.board = new FollowedMap(client, MemberBoard.MAP, FollowedMap.daemon("ketama-client-board"));
        this.migrationMap = new FollowedMap(client, ClusterMigration.MAP, FollowedMap.daemon("ketama-client-migration"));
    }

    /** Starts following; returns once the first rings are built from the cluster as it is now. */
    void start() {
        lifecycleListener = client.getLifecycleService().addLifecycleListener(this::onLifecycle);
        membershipListener = client.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                rebuilder.request("member " + MemberAddress.of(event.getMember()) + " joined");
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                statuses.remove(event.getMember().getUuid());
                rebuilder.request("member " + MemberAddress.of(event.getMember()) + " left");
            }
        });
        board.listen(null, this::onBoardEvent, () -> { });
        migrationMap.listen(ClusterMigration.KEY, this::onMigrationEvent, () -> { });
        readBoard();
        readMigration();
        board.rereadEvery(REREAD, this::readBoard);
        migrationMap.rereadEvery(REREAD, this::readMigration);
        rebuilder.runAndWait("start-up", START_TIMEOUT);
    }

    private void onLifecycle(LifecycleEvent event) {
        if (event.getState() == LifecycleEvent.LifecycleState.CLIENT_DISCONNECTED) {
            connected = false;
            LOG.warn("ketama: this client lost the cluster; selections keep the rings it last built until it is back");
        } else if (event.getState() == LifecycleEvent.LifecycleState.CLIENT_CONNECTED) {
            connected = true;
            LOG.info("ketama: this client is connected to the cluster again; its rings follow the members again");
            rebuilder.request("connected again");
        }
    }

    private void onBoardEvent(EntryEvent<String, String> event) {
        UUID id = uuid(event.getKey());
        if (id == null) {
            return;
        }
        String text = event.getValue();
        MemberStatus status = text == null ? null : decodeOrNull(text);
        MemberStatus before = status == null ? statuses.remove(id) : statuses.put(id, status);
        if (before == null || status == null || before.state() != status.state()) {
            rebuilder.request("a member's serving state changed");
        }
    }

    /**
     * Reads every entry of the board. An entry missing from the read is not a change while its member
     * is still in the cluster (as on the members, {@link MemberBoard}: during a partition every copy of
     * an entry may sit on the other side, or with a member not yet dropped): the member keeps what it
     * last said. Only the entries of members no longer listed are forgotten.
     */
    private void readBoard() {
        boolean changed = false;
        Set<UUID> seen = new java.util.HashSet<>();
        for (Map.Entry<String, String> e : board.map().entrySet()) {
            UUID id = uuid(e.getKey());
            MemberStatus status = id == null ? null : decodeOrNull(e.getValue());
            if (status == null) {
                continue;
            }
            seen.add(id);
            MemberStatus before = statuses.put(id, status);
            changed |= before == null || before.state() != status.state();
        }
        Set<UUID> listed = new java.util.HashSet<>();
        for (Member m : client.getCluster().getMembers()) {
            listed.add(m.getUuid());
        }
        changed |= statuses.keySet().removeIf(id -> !seen.contains(id) && !listed.contains(id));
        if (changed) {
            rebuilder.request("the board read again");
        }
    }

    /**
     * Reads the entries of {@code members} not heard from yet, at most {@link #UNHEARD_READ} in all:
     * a member that joined, or came back from a merge with a new UUID, is placed by this rebuild once
     * it says it serves, not a re-read later (the members read such entries before a rebuild too). An
     * entry not in by then (its owner cut off) waits for its event or the next re-read.
     */
    private void readUnheard(Collection<Member> members) {
        Map<UUID, CompletionStage<String>> pending = new java.util.HashMap<>();
        for (Member m : members) {
            if (!statuses.containsKey(m.getUuid())) {
                pending.put(m.getUuid(), board.map().getAsync(m.getUuid().toString()));
            }
        }
        long deadline = System.nanoTime() + UNHEARD_READ.toNanos();
        for (Map.Entry<UUID, CompletionStage<String>> e : pending.entrySet()) {
            try {
                String text = e.getValue().toCompletableFuture().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                MemberStatus status = text == null ? null : decodeOrNull(text);
                if (status != null) {
                    statuses.putIfAbsent(e.getKey(), status); // an event that came meanwhile is as new or newer
                }
            } catch (TimeoutException | ExecutionException unread) {
                // placed when its event or the next re-read brings it
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** The migration map's listener carries no value (as the members'): the event says when to read it. */
    private void onMigrationEvent(EntryEvent<String, String> event) {
        migrationMap.execute(this::readMigration);
    }

    private void readMigration() {
        String text = migrationMap.map().get(ClusterMigration.KEY);
        if (text != null) {
            apply(text);
        }
    }

    /**
     * Applies the state read from the map as it stands, whatever its generation (after a
     * split-brain merge the kept state may be an older generation than the one the smaller side
     * had). Reads run one at a time on the map's thread, so a later read never loses to an earlier one.
     */
    private void apply(String text) {
        MigrationState state;
        try {
            state = MigrationStateText.decode(text);
        } catch (IllegalArgumentException e) {
            LOG.warnf("ketama: the cluster's migration state '%s' cannot be read here (%s); keeping %s", text, e.getMessage(), migration);
            return;
        }
        if (!fromCluster || !state.equals(migration)) {
            split = new MigrationSplit(state.settings(), splitAllowedHere);
            migration = state;
            fromCluster = true;
        }
    }

    /** Runs on the rebuild thread only. */
    private void rebuild(String reason) {
        if (!connected) {
            return; // the client's member list is empty or stale: keep the last rings
        }
        List<Member> onRings = new ArrayList<>();
        Map<UUID, Boolean> inputs = new java.util.LinkedHashMap<>();
        Set<Member> listed = client.getCluster().getMembers();
        readUnheard(listed);
        for (Member m : listed) {
            boolean on = MembershipWatcher.belongsOnRings(m, statuses.get(m.getUuid()));
            inputs.put(m.getUuid(), on);
            if (on) {
                onRings.add(m);
            }
        }
        if (inputs.equals(builtFrom)) {
            return;
        }
        RingSnapshot built = builder.build(onRings, null, ++generation, reason);
        inUse = new ClusterRings.InUse(built, metrics.counts(built));
        builtFrom = inputs;
        metrics.rebuilt(built.buildTime());
        LOG.debugf("ketama: client rings rebuilt (generation %d, %d members): %s", built.generation(), built.members().size(), reason);
    }

    /** The rings in use now. */
    RingSnapshot snapshotNow() {
        return inUse.snapshot();
    }

    /** Whether the client is connected to the cluster (else its rings are the last it built). */
    boolean connected() {
        return connected;
    }

    @Override
    public ClusterRings.InUse inUse() {
        return inUse;
    }

    @Override
    public MigrationSplit split() {
        return split;
    }

    @Override
    public ShadowCounts shadows() {
        return shadows;
    }

    @Override
    public MigrationState migration() {
        return migration;
    }

    @Override
    public MigrationSource migrationSource() {
        return MigrationSource.CLUSTER;
    }

    /** A client serves nothing: it is on no ring. */
    @Override
    public ServingState servingState() {
        return null;
    }

    /** Connected, with members on its rings. */
    @Override
    public boolean ready() {
        return connected && !inUse.snapshot().members().isEmpty();
    }

    /**
     * @throws UnsupportedOperationException always: a client follows the cluster's state and counts
     *                                       toward no quorum; a change is made on a member
     */
    @Override
    public MigrationState updateMigration(MigrationSettings next, long expectedGeneration, String who) {
        throw new UnsupportedOperationException("this application is a Hazelcast client: it follows the cluster's migration state and "
                + "cannot change it; change it on a member (RingSelector.updateMigration there, or PUT /q/ketama/migration on its "
                + "management port)");
    }

    @Override
    public HazelcastInstance hazelcast() {
        return client;
    }

    @Override
    public List<MemberStanding> standings() {
        List<MemberStanding> out = new ArrayList<>();
        for (Member m : client.getCluster().getMembers()) {
            MemberStatus s = statuses.get(m.getUuid());
            out.add(new MemberStanding(m, MemberAddress.of(m), s == null ? null : s.state(), s == null ? 0 : s.migrationGeneration()));
        }
        return out;
    }

    @Override
    public void close() {
        UUID membership = membershipListener;
        UUID lifecycle = lifecycleListener;
        try {
            if (membership != null) {
                client.getCluster().removeMembershipListener(membership);
            }
            if (lifecycle != null) {
                client.getLifecycleService().removeLifecycleListener(lifecycle);
            }
        } catch (RuntimeException e) {
            LOG.debugf("ketama: client listeners not removed: %s", e);
        }
        for (AutoCloseable part : new AutoCloseable[] {board, migrationMap, rebuilder}) {
            try {
                part.close();
            } catch (Exception e) {
                LOG.debugf("ketama: closing %s: %s", part.getClass().getSimpleName(), e);
            }
        }
    }

    private static UUID uuid(String key) {
        try {
            return UUID.fromString(key);
        } catch (IllegalArgumentException e) {
            return null; // not a member's entry
        }
    }

    private static MemberStatus decodeOrNull(String text) {
        try {
            return MemberStatus.decode(text);
        } catch (IllegalArgumentException e) {
            return null; // a malformed entry: the member is placed as if it said nothing (the members log it)
        }
    }
}
