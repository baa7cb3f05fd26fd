package io.ketama.quarkus;

import com.hazelcast.cluster.Member;
import io.ketama.core.BoundedLoads;

import java.util.List;
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
 *   <li>Every member computes the same owner for a key from the same member set and the same ring
 *       settings ({@code quarkus.ketama.hash-style} and its options, {@code v2.points-per-weight});
 *       which ring version serves a key is decided per key by the cluster's {@link MigrationState},
 *       one value for every member, versioned by a generation and changed by
 *       {@link #updateMigration} (or {@code PUT /q/ketama/migration}).</li>
 *   <li>The rings hold the members that are in the cluster and serving: a member joins them once
 *       its application has started, and on a graceful stop leaves them before it stops serving
 *       (see {@link RingsLeft}).</li>
 *   <li>Lookups never block and never see half a ring: rebuilds run on a background thread from
 *       the full member set after each membership or serving change (coalesced within
 *       {@code quarkus.ketama.rebuild.coalesce-delay}) and are swapped in as one snapshot.</li>
 *   <li>A lookup allocates only its {@link Selection}; the failover candidates are computed when
 *       first read.</li>
 * </ul>
 * The extension's implementation runs on this application's embedded Hazelcast member; the
 * interface is what an application depends on.
 */
public interface RingSelector {

    /** The {@code expectedGeneration} of {@link #updateMigration(MigrationSettings, long, String)} that any generation matches. */
    long ANY_GENERATION = -1;

    /** The owner of the UTF-8 bytes of {@code key}. */
    Selection select(String key);

    /** The owner of {@code key}. */
    Selection select(byte[] key);

    /**
     * The owner of the UTF-8 bytes of {@code key} among the members that have every feature in
     * {@code requiredFeatures} (a set naming a feature no member has: no owner). The set is read
     * again when {@link Selection#candidates()} is first read: pass one that does not change.
     */
    Selection select(String key, Set<String> requiredFeatures);

    /** {@link #select(String, Set)} for the bytes of {@code key}. */
    Selection select(byte[] key, Set<String> requiredFeatures);

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
    BoundedSelection selectBounded(String key, Set<String> requiredFeatures, ToLongFunction<Member> loads, long totalLoad);

    /**
     * {@link #selectBounded(String, Set, ToLongFunction, long)} with the load the members published on
     * the cluster's load board ({@link #publishedLoad()}): the choice every member and every client
     * that read the same board makes for {@code key}. Past a full owner, the key goes to the same
     * next member from any of them.
     */
    default BoundedSelection selectBounded(String key, Set<String> requiredFeatures) {
        PublishedLoad load = publishedLoad();
        return selectBounded(key, requiredFeatures, load::load, load.total());
    }

    /**
     * The load each member published on the cluster's load board ({@link LoadBoardEntry}: the
     * cache-routing service's members write theirs every window), as this process last read it: read
     * every {@code 500 ms} from the first call on (the first call reads it at once), an entry left out
     * once its sequence stood still for three of its windows (and at least three reads), and
     * {@link PublishedLoad#NONE} when no read has succeeded for 1.5 s (a client cut off from the
     * cluster). A member and a client read the same map the same way. Never waits on the cluster after
     * the first call.
     */
    PublishedLoad publishedLoad();

    /** The bounded-load settings this member runs with. */
    BoundedLoadSettings boundedLoad();

    /** The rings in use now and what they were built from. */
    RingSnapshot snapshot();

    /**
     * Whether this member serves: it said so, and its rings are built and contain it (the
     * readiness condition). False before start-up completes and from the start of a drain.
     */
    boolean isReady();

    /** This member's serving state, as it tells the others. */
    ServingState servingState();

    /**
     * The migration state this member applies: with {@code quarkus.ketama.migration.source=cluster}
     * (the default) the cluster's, the same on every member once a change has spread (compare the
     * generations).
     */
    MigrationState migration();

    /** Where the migration state comes from. */
    MigrationSource migrationSource();

    /**
     * Sets the migration settings of the whole cluster (of this member alone with
     * {@code source=member}) on top of whatever state is current: the next generation, applied here
     * before this returns and by every other member within milliseconds. The data-centre allowlist
     * stays as each member configured it. Selections already under way finish with the settings
     * they started with. It returns once a majority of the members the cluster expects apply the
     * change (at once in a cluster of one), or {@code quarkus.ketama.migration.min-members} members
     * when that is set (runtime/README, "Faults").
     *
     * @return the new state
     * @throws MigrationQuorumException when this member sees fewer members than that (nothing
     *                                  changed), or too few confirmed the change in time (not acknowledged)
     */
    MigrationState updateMigration(MigrationSettings settings);

    /**
     * {@link #updateMigration(MigrationSettings)} as a compare-and-set: only if the state is still at
     * {@code expectedGeneration} (any generation: {@link #ANY_GENERATION}).
     *
     * @param changedBy who asks, for the log and {@link MigrationState#changedBy()}
     * @throws MigrationConflictException when another change came first; nothing was changed
     * @throws MigrationQuorumException   as {@link #updateMigration(MigrationSettings)} says
     */
    MigrationState updateMigration(MigrationSettings settings, long expectedGeneration, String changedBy);

    /**
     * Where each member of the cluster says it stands (serving state, applied migration
     * generation), in the cluster's member order, as this member last heard it: each other member's
     * entry as its last poll of the board read it (every 250 ms up to 100 members, 2.5 s at 1,000) or
     * an entry event carried it since. Never waits on a remote member; builds a list: not for the
     * request path.
     */
    List<MemberStanding> memberStandings();
}
