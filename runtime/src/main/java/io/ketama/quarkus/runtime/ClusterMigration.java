package io.ketama.quarkus.runtime;

import io.ketama.quarkus.MemberAddress;
import io.ketama.quarkus.MigrationConflictException;
import io.ketama.quarkus.MigrationQuorumException;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSource;
import io.ketama.quarkus.MigrationState;
import io.ketama.quarkus.RingSelector;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.map.IMap;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The migration state of the whole cluster: one {@link MigrationState} in the Hazelcast map
 * {@value #MAP}, changed by compare-and-set and followed by every member.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>One value.</b> The stored entry is the truth. A member applies what it reads there; a
 *       change ({@link #update}) is a compare-and-set of the stored text, so of two concurrent
 *       changes one wins and the other is applied on top of it (or refused, when it named the
 *       generation it expected), never lost silently.</li>
 *   <li><b>Fast and complete.</b> An entry listener makes every member re-read the entry as soon as
 *       it changes (milliseconds on a LAN); a re-read every {@link #RESYNC} catches anything an event
 *       missed, and bounds the delay where Hazelcast refuses the listener (as it does when its async
 *       executor runs callbacks on its response threads). Events are only a trigger, so their order
 *       does not matter.</li>
 *   <li><b>Seed.</b> The first member of a new cluster stores its configured settings as generation
 *       1; every later member adopts the stored value in {@link #start}, before it returns, whatever
 *       its own configuration says (logged when they differ).</li>
 *   <li><b>Configuration rollouts.</b> Once ready, a member offers its configuration
 *       ({@link #offerConfiguration}): {@link ConfigurationRollout} decides whether it moves the
 *       state (a rolling restart with new settings) or not (the same settings, or an old member's),
 *       and the configuration the cluster last adopted is kept beside the state
 *       ({@link AdoptedConfiguration}).</li>
 *   <li><b>Acknowledged means kept.</b> A change returns only once a majority of the members the
 *       cluster expects apply it ({@link ClusterRoster}), or {@code quarkus.ketama.migration.min-members}
 *       when set, and is refused when this member sees fewer ({@link MigrationQuorum}): a change that
 *       returned survives every partition and its merge.</li>
 *   <li><b>Loss and merge.</b> Each member remembers the last {@value #HISTORY} states it applied.
 *       When the stored state is one of those and older than the one this member applies, the
 *       cluster has gone back (the entry was lost with every copy on a side that died or was cut off,
 *       and a member that had not heard of the newest change stored its own; or this member's side
 *       merged into a side that made no change since the two split): the member stores its newer
 *       state again, as a fast-forward. Any other stored state is followed, even an older
 *       generation: after a split-brain merge in which both sides changed the state, the side
 *       Hazelcast merges into (the larger) keeps its own, and the smaller side's changes since the
 *       split are dropped, logged as a warning on each of its members. With the learned quorum (or
 *       a majority {@code min-members}) none of those was acknowledged. The cluster's expected
 *       members ({@link ClusterRoster}, an entry of the same map) merge by the same rule: the larger
 *       side's list is kept.</li>
 *   <li><b>Unreadable.</b> A stored text that is not a state (written by something other than
 *       this class) is reported by each member once while it stays stored, as an ERROR log line
 *       saying the generation kept and what is wrong with the text, and applied nowhere: every
 *       member keeps the state it applies, and the next {@link #update} replaces the text. A member
 *       that starts meanwhile has no state to keep: its {@link #start} fails, saying so, rather
 *       than store its configuration as generation 1 and take every running member back to it.</li>
 *   <li><b>Per-member mode.</b> With {@link MigrationSource#MEMBER} nothing is stored: the member runs
 *       with its configuration and {@link #update} changes this member alone.</li>
 * </ul>
 *
 * <p>Reads and changes of the entry happen under one lock per member, so a member never applies a
 * value older than one it applied or wrote itself (except after a merge or loss, when the cluster's
 * value is adopted with a warning).
 */
final class ClusterMigration implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ClusterMigration.class);

    /** The Hazelcast map that holds the state. */
    static final String MAP = "ketama.migration";
    /** The map key of the state. */
    static final String KEY = "state";
    /** Argument of {@link #update} for a change applied on top of whatever state is current. */
    static final long ANY_GENERATION = RingSelector.ANY_GENERATION;
    /** How often a member re-reads the state without being told it changed (one remote get). */
    static final Duration RESYNC = Duration.ofMillis(250);
    private static final int MAX_ATTEMPTS = 50;
    /**
     * Longest wait for the adopted configuration when the admin plane shows it: the entry's owner
     * may be paused or cut off and not yet dropped by the failure detector, and a {@code GET} must
     * answer within its time limits rather than wait out Hazelcast's call timeout (60 s).
     */
    static final Duration VIEW_READ_TIMEOUT = Duration.ofSeconds(1);
    /** How many of the states it applied a member remembers, to tell a cluster that went back from one that moved on. */
    static final int HISTORY = 256;

    private final HazelcastInstance hazelcast;
    private final MigrationSource source;
    private final Consumer<MigrationState> onApply;
    private final Clock clock;
    private final ThreadFactory follower;
    private final MigrationQuorum quorum;
    private final Object lock = new Object();
    /** The states this member applied, oldest first, at most {@link #HISTORY} (guarded by lock). */
    private final ArrayDeque<MigrationState> history = new ArrayDeque<>();
    private final String self;
    private volatile MigrationState current;
    private IMap<String, String> map;
    /** The map followed, from {@link #start} on when the state is the cluster's (null when each member keeps its own). */
    private FollowedMap followed;
    /** The last malformed stored text reported, so it is reported once (guarded by lock). */
    private String reportedMalformed;
    /** Told of every change this member makes (not of those it follows). */
    private volatile Consumer<MigrationState> onChange = s -> { };

    /**
     * @param onApply called with each state this member applies, in order, under this object's lock:
     *                keep it short and non-blocking
     */
    ClusterMigration(HazelcastInstance hazelcast, MigrationSource source, Consumer<MigrationState> onApply, Clock clock) {
        this(hazelcast, source, MigrationQuorum.NONE, onApply, clock);
    }

    /**
     * @param quorum how many members a change needs ({@link MigrationQuorum#NONE}: none)
     */
    ClusterMigration(HazelcastInstance hazelcast, MigrationSource source, MigrationQuorum quorum, Consumer<MigrationState> onApply,
                     Clock clock) {
        this(hazelcast, source, quorum, onApply, clock, FollowedMap.daemon("ketama-migration"));
    }

    /**
     * @param follower makes the one thread that applies the cluster's changes to this member (on
     *                 entry events and every {@link #RESYNC}); until it runs, this member's view of
     *                 the state stays as it is, as on a member that has not yet heard of a change
     */
    ClusterMigration(HazelcastInstance hazelcast, MigrationSource source, Consumer<MigrationState> onApply, Clock clock,
                     ThreadFactory follower) {
        this(hazelcast, source, MigrationQuorum.NONE, onApply, clock, follower);
    }

    ClusterMigration(HazelcastInstance hazelcast, MigrationSource source, MigrationQuorum quorum, Consumer<MigrationState> onApply,
                     Clock clock, ThreadFactory follower) {
        this.quorum = Objects.requireNonNull(quorum, "quorum");
        this.hazelcast = Objects.requireNonNull(hazelcast, "hazelcast");
        this.source = Objects.requireNonNull(source, "source");
        this.onApply = Objects.requireNonNull(onApply, "onApply");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.follower = Objects.requireNonNull(follower, "follower");
        this.self = MemberAddress.of(hazelcast.getCluster().getLocalMember());
    }

    /**
     * Adopts the cluster's state, or stores {@code configured} as generation 1 when the cluster has
     * none; returns when the state is applied.
     *
     * @throws IllegalStateException when the cluster's stored state is unreadable (saying why and
     *                               how to repair it): nothing is stored and this member applies nothing
     */
    MigrationState start(MigrationSettings configured) {
        MigrationState seed = seed(configured, self, clock.instant());
        if (source == MigrationSource.MEMBER) {
            synchronized (lock) {
                apply(seed);
            }
            LOG.infof("ketama: migration from this member's configuration only (quarkus.ketama.migration.source=member): %s",
                    configured);
            return seed;
        }
        followed = new FollowedMap(hazelcast, MAP, follower);
        map = followed.map();
        // Listen before reading, so a change between the two is not missed; any change of the
        // entry, and a split-brain merge, is a reason to read it again at once.
        followed.listen(KEY, event -> followed.execute(this::refreshQuietly), this::refreshQuietly);
        synchronized (lock) {
            String stored = map.putIfAbsent(KEY, MigrationStateText.encode(seed));
            if (stored == null) {
                LOG.infof("ketama: this member started the cluster's migration state from its configuration: %s", seed);
                apply(seed);
            } else {
                MigrationState cluster = decode(stored);
                if (cluster == null) {
                    // Storing this member's seed (generation 1) would take every running member
                    // back to it, and a text this member cannot read may be a newer member's
                    // format: start nowhere rather than split the cluster or overwrite it.
                    close();
                    throw new IllegalStateException("the cluster's migration state (Hazelcast map " + MAP + ", key " + KEY
                            + ") is unreadable: " + unreadable(stored) + "; this member does not start on it, as it "
                            + "would replace the state the running members apply. Repair it with PUT /q/ketama/migration on "
                            + "a running member (a change replaces the text), then start this member again");
                } else {
                    if (!cluster.settings().equals(configured)) {
                        LOG.infof("ketama: this member's configured migration %s differs from the cluster's; the cluster's applies "
                                + "until this member is ready and offers its own, which moves the cluster unless it is one the cluster "
                                + "adopted or moved past: %s", configured, cluster);
                    }
                    apply(cluster);
                }
            }
        }
        followed.rereadEvery(RESYNC, this::refreshQuietly);
        return current;
    }

    /** Tells {@code listener} of every change this member makes from now on (not of those it follows). */
    void onChange(Consumer<MigrationState> listener) {
        this.onChange = Objects.requireNonNull(listener, "listener");
    }

    /** The state this member applies now. */
    MigrationState current() {
        return current;
    }

    MigrationSource source() {
        return source;
    }

    /**
     * The cluster's state as stored now, applied on this member before it is returned (one remote
     * read); in {@link MigrationSource#MEMBER} mode this member's. For a check against what the
     * cluster holds, where {@link #current} may not have heard of a change yet.
     */
    MigrationState latest() {
        synchronized (lock) {
            if (source == MigrationSource.CLUSTER) {
                refresh();
            }
            return current;
        }
    }

    /**
     * Sets {@code next} as the cluster's migration settings (this member's only, in
     * {@link MigrationSource#MEMBER} mode), with the next generation; this member applies it before
     * returning, the others within milliseconds.
     *
     * @param expectedGeneration the generation the change is based on, or {@link #ANY_GENERATION}
     * @param who                who asks, for the log and the state's {@code changedBy}
     * @throws MigrationConflictException when the state is no longer at {@code expectedGeneration}
     * @throws MigrationQuorumException   when the change is refused or unconfirmed for too few members
     */
    MigrationState update(MigrationSettings next, long expectedGeneration, String who) {
        Objects.requireNonNull(next, "next");
        return update(settings -> next, expectedGeneration, who);
    }

    /**
     * {@link #update(MigrationSettings, long, String)} with the settings {@code change} makes of the
     * state the change is applied on top of: a change of some fields keeps the others as they are
     * then, not as this member last applied them (a change another member just made, or one made
     * here at the same time, would be undone).
     *
     * @param change the new settings from the current ones; may be called more than once (it must
     *               not have side effects), and may throw {@link IllegalArgumentException}
     */
    MigrationState update(UnaryOperator<MigrationSettings> change, long expectedGeneration, String who) {
        MigrationState made = store(change, expectedGeneration, who);
        if (source == MigrationSource.CLUSTER) {
            try {
                quorum.awaitConfirmed(made); // outside the lock: this member keeps following meanwhile
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw MigrationQuorumException.unconfirmed(made, 0, quorum.required(), 0, quorum.status().learned());
            } catch (MigrationQuorumException e) {
                LOG.warnf("ketama: migration change by %s (generation %d) not acknowledged: %s", who, made.generation(), e.getMessage());
                throw e;
            }
        }
        return made;
    }

    /** Makes the change and applies it here; the confirmation by the others is {@link #update}'s. */
    private MigrationState store(UnaryOperator<MigrationSettings> change, long expectedGeneration, String who) {
        Objects.requireNonNull(change, "change");
        Objects.requireNonNull(who, "who");
        synchronized (lock) {
            if (source == MigrationSource.MEMBER) {
                MigrationState base = current;
                checkExpected(base, expectedGeneration);
                MigrationState changed = next(base, change.apply(base.settings()), who, clock.instant());
                apply(changed);
                logChange(base, changed, "this member only");
                onChange.accept(changed);
                return changed;
            }
            try {
                quorum.requireMembers();
            } catch (MigrationQuorumException e) {
                LOG.warnf("ketama: migration change by %s refused: %s", who, e.getMessage());
                throw e;
            }
            for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
                String stored = map.get(KEY);
                MigrationState base = stored == null ? current : decode(stored);
                if (base == null) {
                    base = current; // malformed: replaced by a well-formed next generation of ours
                }
                checkExpected(base, expectedGeneration);
                MigrationState changed = next(base, change.apply(base.settings()), who, clock.instant());
                String text = MigrationStateText.encode(changed);
                boolean won = stored == null ? map.putIfAbsent(KEY, text) == null : map.replace(KEY, stored, text);
                if (won) {
                    apply(changed);
                    logChange(base, changed, "cluster-wide");
                    onChange.accept(changed);
                    return changed;
                }
            }
            throw new IllegalStateException("the migration state changed " + MAX_ATTEMPTS
                    + " times while this change was being made; nothing was changed, try again");
        }
    }

    /**
     * The configuration the cluster last adopted, or null when it has none (or the stored one is
     * unreadable, which is logged). One remote read, waited for at most {@code within}.
     *
     * @throws TimeoutException when the entry was not read within {@code within}
     */
    AdoptedConfiguration adoptedConfiguration(Duration within) throws TimeoutException {
        if (source == MigrationSource.MEMBER) {
            return null;
        }
        String text;
        try {
            text = map.getAsync(AdoptedConfiguration.KEY).toCompletableFuture().get(within.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TimeoutException("interrupted while reading the adopted configuration");
        } catch (ExecutionException e) {
            throw new IllegalStateException("the adopted configuration could not be read: " + e.getCause(), e.getCause());
        }
        return text == null ? null : decodeAdopted(text);
    }

    /**
     * Offers {@code mine}, this member's configuration, to the cluster once this member is ready:
     * adopts it as the cluster's state (a new generation, {@code configuration of <identity>}),
     * records it, marks this member rolled, or does nothing, as {@link ConfigurationRollout} decides;
     * logs what it did and why. Blocks for remote calls (and, with {@code min-members}, for the
     * members' confirmations): call it off the start-up and request paths. Nothing with
     * {@link MigrationSource#MEMBER}.
     *
     * @param identity this member's ring identity
     * @param others   the configurations the other members in the cluster publish now, by ring
     *                 identity (empty text: unknown)
     * @return the decision taken, or null with {@link MigrationSource#MEMBER}
     * @throws MigrationQuorumException when the adoption needs more members than there are: try again later
     */
    ConfigurationRollout.Decision offerConfiguration(ConfiguredMigration mine, String identity, Supplier<Map<String, String>> others) {
        if (source == MigrationSource.MEMBER) {
            return null;
        }
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            String text = map.get(AdoptedConfiguration.KEY);
            AdoptedConfiguration recorded = text == null ? null : decodeAdopted(text);
            MigrationState state = latest();
            ConfigurationRollout.Decision decision = ConfigurationRollout.decide(mine, identity, recorded, state);
            AdoptedConfiguration next;
            switch (decision.kind()) {
                case STALE -> {
                    LOG.warnf("ketama: configured migration %s not adopted: %s; the cluster keeps %s", mine, decision.why(), state);
                    return decision;
                }
                case UNCHANGED -> {
                    if (!recorded.pending().containsKey(identity)) {
                        LOG.infof("ketama: configured migration %s is the cluster's already (%s); it applies %s", mine, decision.why(),
                                state);
                        return decision;
                    }
                    next = recorded.rolled(identity);
                }
                case RECORD -> next = new AdoptedConfiguration(mine, 0, identity, clock.instant(), pending(mine, identity, others.get()));
                case ADOPT -> {
                    MigrationState made = state.origin() == MigrationState.Origin.CONFIGURATION && state.settings().equals(mine.settings())
                            ? state // adopted already (this member's earlier attempt, or another member's): record it
                            : update(settings -> mine.settings(), ANY_GENERATION, MigrationState.BY_CONFIGURATION + identity);
                    next = new AdoptedConfiguration(mine, made.generation(), identity, clock.instant(), pending(mine, identity, others.get()));
                }
                default -> throw new IllegalStateException(decision.kind().name());
            }
            boolean won = text == null ? map.putIfAbsent(AdoptedConfiguration.KEY, next.encode()) == null
                    : map.replace(AdoptedConfiguration.KEY, text, next.encode());
            if (won) {
                switch (decision.kind()) {
                    case ADOPT -> LOG.infof("ketama: configured migration %s adopted by the cluster as generation %d (%s); members "
                            + "still to be rolled onto it: %s", mine, next.generation(), decision.why(), next.pending().keySet());
                    case RECORD -> LOG.infof("ketama: configured migration %s recorded as the cluster's configuration (%s)", mine,
                            decision.why());
                    default -> LOG.infof("ketama: configured migration %s is the cluster's already (%s); this member is rolled onto "
                            + "it, %d still to be", mine, decision.why(), next.pending().size());
                }
                return decision;
            }
        }
        throw new IllegalStateException("the cluster's adopted configuration changed " + MAX_ATTEMPTS
                + " times while this member offered its own; it is offered again later");
    }

    /** The other members whose published configuration is not {@code mine}, with theirs. */
    private static Map<String, String> pending(ConfiguredMigration mine, String identity, Map<String, String> others) {
        Map<String, String> out = new java.util.TreeMap<>();
        others.forEach((id, configured) -> {
            if (!id.equals(identity) && !mine.encode().equals(configured)) {
                out.put(id, configured);
            }
        });
        return out;
    }

    private AdoptedConfiguration decodeAdopted(String text) {
        try {
            return AdoptedConfiguration.decode(text);
        } catch (IllegalArgumentException e) {
            LOG.errorf("ketama: the cluster's record of its adopted configuration is unreadable and counts as none: %s",
                    e.getMessage());
            return null;
        }
    }

    private static void checkExpected(MigrationState base, long expectedGeneration) {
        if (expectedGeneration != ANY_GENERATION && base.generation() != expectedGeneration) {
            throw new MigrationConflictException(base, expectedGeneration);
        }
    }

    private static void logChange(MigrationState from, MigrationState to, String scope) {
        LOG.infof("ketama: migration changed %s by %s: %s -> %s (generation %d)", scope, to.changedBy(), from.settings(),
                to.settings(), to.generation());
    }

    /**
     * Re-reads the stored state and applies it, or stores this member's state again where the
     * stored one is an older state this member applied (see the contract). Caller holds the lock.
     */
    private void refresh() {
        String stored = map.get(KEY);
        MigrationState mine = current;
        if (stored == null) {
            String other = map.putIfAbsent(KEY, MigrationStateText.encode(mine));
            if (other == null) {
                LOG.warnf("ketama: the cluster had lost its migration state (every copy was on members that left or were cut "
                        + "off at once); this member stored the one it applies: %s", mine);
                return;
            }
            stored = other;
        }
        MigrationState cluster = decode(stored);
        if (cluster == null) {
            return;
        }
        if (cluster.generation() < mine.generation() && history.contains(cluster)) {
            boolean won = map.replace(KEY, stored, MigrationStateText.encode(mine));
            if (won) {
                LOG.warnf("ketama: the cluster's migration state had gone back to generation %d, which this member applied "
                        + "before its own %d (a lost entry, or a merge with a side that made no change since the split); this "
                        + "member stored its newer one again: %s", cluster.generation(), mine.generation(), mine);
            }
            return; // lost the race: the next read follows whoever won
        }
        apply(cluster);
    }

    private void refreshQuietly() {
        try {
            synchronized (lock) {
                refresh();
            }
        } catch (HazelcastInstanceNotActiveException e) {
            LOG.debug("ketama: migration state not read: Hazelcast is stopping");
        } catch (RuntimeException e) {
            LOG.warnf(e, "ketama: reading the cluster's migration state failed; retrying within %s", RESYNC);
        }
    }

    /** Applies {@code s} if it differs from the current state. Caller holds the lock. */
    private void apply(MigrationState s) {
        MigrationState previous = current;
        if (s.equals(previous)) {
            return;
        }
        if (previous != null && s.generation() <= previous.generation()) {
            LOG.warnf("ketama: the cluster's migration state went from generation %d back to %d: this member's side merged "
                    + "into a side that changed the state too, and that side's state is kept (this side's changes since the "
                    + "split are dropped); following the cluster: %s", previous.generation(), s.generation(), s);
        }
        current = s;
        history.addLast(s);
        if (history.size() > HISTORY) {
            history.removeFirst();
        }
        onApply.accept(s);
        if (previous != null) {
            LOG.infof("ketama: migration generation %d applied on this member: %s", s.generation(), s);
        }
    }

    /** The first value of a cluster: {@code settings} from the configuration of {@code member}. */
    private static MigrationState seed(MigrationSettings settings, String member, Instant now) {
        return new MigrationState(settings, 1, MigrationState.BY_CONFIGURATION + member, now);
    }

    /** The value after {@code base} when {@code who} sets {@code next}. */
    private static MigrationState next(MigrationState base, MigrationSettings next, String who, Instant now) {
        return new MigrationState(next, base.generation() + 1, who, now);
    }

    /** Why {@code stored} is not a state. */
    private static String unreadable(String stored) {
        try {
            MigrationStateText.decode(stored);
            return "it changed while it was read";
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private MigrationState decode(String stored) {
        try {
            return MigrationStateText.decode(stored);
        } catch (IllegalArgumentException e) {
            if (!stored.equals(reportedMalformed)) {
                reportedMalformed = stored;
                LOG.errorf("ketama: the cluster's migration state is unreadable, keeping generation %s: %s",
                        current == null ? "none" : current.generation(), e.getMessage());
            }
            return null;
        }
    }

    @Override
    public void close() {
        if (followed != null) {
            followed.close();
        }
    }
}
