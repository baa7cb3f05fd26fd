package io.ketama.quarkus.runtime;

import io.ketama.quarkus.ServingState;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.map.IMap;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The board on which every member running the extension says where it stands: one entry per
 * member in the Hazelcast map {@value #MAP}, keyed by member UUID, holding its {@link MemberStatus}
 * as text. Hazelcast member attributes cannot change after a member starts, so a serving state
 * that changes (starting, serving, draining) needs this carrier.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>Each member writes only its own entry, one write at a time in the order of its changes
 *       (one writer per key: no lost update to guard against).</li>
 *   <li>A change of some member's serving state (an entry added, removed, or whose state differs)
 *       is reported through the callback given to the constructor, by an entry listener and by a
 *       read of the members' entries every {@link #pollInterval} (which alone carries the changes where
 *       Hazelcast refuses the listener); changes of only the applied generation or ring view are
 *       not reported (they would make every rebuild cause another).</li>
 *   <li>Readers take the entries of the members that are in the cluster now, so the entry of a
 *       member that died without clearing it is never read; the oldest member removes such entries
 *       within {@link #RESYNC}. A member whose entry was lost writes it again within {@link #RESYNC}.</li>
 *   <li><b>A rebuild takes the board as heard</b> ({@link #snapshot}): what the entry events and the
 *       polls last brought, reading remotely only members not heard from yet; a change reaches the
 *       callback after it is remembered, so the rebuild it asks for holds it. What must be fresh
 *       reads remotely ({@link #read}: a drain's confirmations, the migration quorum, the polls).
 *       A read never takes back what an entry event that arrived after the read began said.</li>
 *   <li><b>Lost entries are not state changes.</b> A member's entry can vanish while the member is
 *       still in the cluster: during a network partition the copies of an entry may all sit on the
 *       other side, and their owners are still listed until the failure detector drops them. A read
 *       answers such a member with what it last said (its entry is written again within
 *       {@link #RESYNC}), and this member always with its own status as it stands here, never with
 *       what the map holds: a member never leaves its own rings because its entry was lost.</li>
 *   <li><b>Reads are bounded by a stall, not by a total.</b> The entries are read at once
 *       (asynchronously) and waited for in turn, each at most {@link #READ_TIMEOUT} after the one
 *       before it arrived, and longer only while other entries keep arriving (a read waits in its
 *       own order, not Hazelcast's: 1,000 entries behind a busy partition thread on a loaded
 *       machine came more than a second apart for the one waited on while the rest kept arriving).
 *       An owner that does not answer (cut off, not yet dropped by the failure detector) stalls
 *       the read for {@link #READ_TIMEOUT} once nothing else arrives; the entries not in by then
 *       are answered with what each member last said, so a rebuild or a drain never waits for
 *       Hazelcast's call timeout.
 *       A read that keeps making progress is never cut short: 1,000 entries on a loaded machine take
 *       longer than one second in all (a one-second total read back 555 of 1,000, RebuildAtScaleBench).</li>
 *   <li><b>Merges.</b> A member that merges into another cluster after a split-brain comes back
 *       with a new member UUID (Hazelcast gives a merging member a new identity). The entry is
 *       keyed by the UUID the member has <em>now</em>: on the merge (and at every {@link #RESYNC}
 *       should the event be missed) it writes its entry under its new UUID and deletes the one under
 *       its old UUID, so the others place it again at once and nobody sweeps it off in a loop.</li>
 * </ul>
 */
final class MemberBoard implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(MemberBoard.class);

    /** The Hazelcast map that holds the board. */
    static final String MAP = "ketama.members";
    /** How often a member checks its own entry and the oldest member sweeps entries of members gone. */
    static final Duration RESYNC = Duration.ofSeconds(2);
    /** How often a member reads the serving states of the cluster's members, up to {@value #POLL_READS_PER_SECOND} members' worth. */
    static final Duration POLL = Duration.ofMillis(250);
    /**
     * The most board entries a member's poll reads a second. A poll reads every member's entry,
     * so at a fixed interval the cluster's reads grow as N²: 1,000 members polling every 250 ms
     * would each make 4,000 remote reads a second (about 0.4 of a core at the ~100 µs an entry read
     * costs in RebuildAtScaleBench). Past {@code 400 × 0.25 s = 100} members the interval grows
     * instead ({@link #pollInterval}): 2.5 s at 1,000, 25 s at 10,000. The entry listener still
     * reports changes at once; the poll is what catches a missed event.
     */
    static final int POLL_READS_PER_SECOND = 400;
    /** Longest wait for this member's own write. */
    static final Duration WRITE_TIMEOUT = Duration.ofSeconds(30);
    /** Longest wait for the next of the members' entries in one read; entries not read by then answer with what was last read. */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(1);

    private final HazelcastInstance hazelcast;
    private final Consumer<String> onServingChange;
    private final IMap<String, String> map;
    /** The board as this member follows it; its one thread ("the writer") writes this member's entry, re-checks it, and polls. */
    private final FollowedMap followed;
    private final Set<String> reportedMalformed = new HashSet<>();
    private volatile MemberStatus mine;
    /** The text last written by this member (writer thread only). */
    private String written;
    /** The UUID {@link #written} was written under (writer thread only). */
    private UUID writtenAs;
    /** What each member other than this one said last, as last read or heard: the answer when its entry is missing or slow. */
    private final Map<UUID, MemberStatus> lastRead = new java.util.concurrent.ConcurrentHashMap<>();
    /** Counts the entry events heard; a read remembers only what no event newer than its start said. */
    private final AtomicLong heard = new AtomicLong();
    /** The value of {@link #heard} at each member's last entry event. */
    private final Map<UUID, Long> heardAt = new java.util.concurrent.ConcurrentHashMap<>();
    /** Serving states of the members as last polled (poller thread only). */
    private Map<UUID, ServingState> polled = Map.of();

    /**
     * @param onServingChange told (on a Hazelcast event thread: return at once) why some member's
     *                        serving state changed
     */
    MemberBoard(HazelcastInstance hazelcast, Consumer<String> onServingChange) {
        this.hazelcast = Objects.requireNonNull(hazelcast, "hazelcast");
        this.onServingChange = Objects.requireNonNull(onServingChange, "onServingChange");
        this.followed = new FollowedMap(hazelcast, MAP, FollowedMap.daemon("ketama-board"));
        this.map = followed.map();
    }

    /** Writes this member's first status and starts listening; returns once it is written. */
    void start(MemberStatus initial) {
        mine = Objects.requireNonNull(initial, "initial");
        // On a merge, write the entry under the new UUID at once, not within RESYNC.
        followed.listen(null, this::onEntryEvent, this::resync);
        flush();
        followed.rereadEvery(RESYNC, this::resync);
        followed.schedule(this::pollAndReschedule, POLL);
    }

    /** This member's status as last changed (perhaps not yet written). */
    MemberStatus mine() {
        return mine;
    }

    /** Changes this member's status; the write follows on the board's thread, in order. */
    void update(UnaryOperator<MemberStatus> change) {
        synchronized (this) {
            mine = change.apply(mine);
        }
        followed.execute(this::writeMine);
    }

    /** Waits until this member's latest status is written to the cluster. */
    void flush() {
        try {
            followed.submit(() -> {
                writeMine();
                return null;
            }).get(WRITE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing this member's status", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("writing this member's status failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("writing this member's status took longer than " + WRITE_TIMEOUT, e);
        }
    }

    /** This member's UUID now: Hazelcast gives a member a new one when it merges after a split-brain. */
    private UUID self() {
        return hazelcast.getCluster().getLocalMember().getUuid();
    }

    private void writeMine() {
        String text = mine.encode();
        UUID as = self();
        if (!text.equals(written) || !as.equals(writtenAs)) {
            write(as, text);
        }
    }

    /** Writes {@code text} under {@code as}, and removes the entry under the UUID this member had before, if another. */
    private void write(UUID as, String text) {
        map.set(as.toString(), text);
        UUID before = writtenAs;
        written = text;
        writtenAs = as;
        if (before != null && !before.equals(as)) {
            LOG.infof("ketama: this member's UUID changed from %s to %s (a split-brain merge gives a merging member a new one); "
                    + "its board entry is now under the new UUID", before, as);
            map.delete(before.toString());
        }
    }

    /**
     * The statuses of {@code members}: this member's own as it stands here; each other member's as
     * its entry says, else (entry missing, or not read before the read stalled for
     * {@link #READ_TIMEOUT}) as it last said; members that never said anything readable are absent.
     * Remote reads: call it off the request path.
     */
    Map<UUID, MemberStatus> read(Collection<Member> members) {
        Map<UUID, MemberStatus> out = new HashMap<>();
        List<UUID> others = new ArrayList<>(members.size());
        for (Member m : members) {
            if (m.localMember()) {
                out.put(m.getUuid(), mine);
            } else {
                others.add(m.getUuid());
            }
        }
        readRemotely(others, out);
        lastRead.keySet().retainAll(others);
        heardAt.keySet().retainAll(others);
        return out;
    }

    /**
     * The statuses of {@code members} for a rebuild: this member's own as it stands here; each other
     * member's as this member last heard it (its entry events, and the polls, which read every entry
     * every {@link #pollInterval}); only the members not heard from yet (a member that just joined)
     * are read remotely, as {@link #read} does. A rebuild is asked for by the event or the poll that
     * brought a change, after the change is remembered here, so what a rebuild takes holds every
     * change that asked for it: at 1,000 members the step reads nothing remotely instead of 1,000
     * entries (19 ms of Hazelcast's threads at 100 members, 103 ms at 1,000, RebuildAtScaleBench).
     */
    Map<UUID, MemberStatus> snapshot(Collection<Member> members) {
        Map<UUID, MemberStatus> out = known(members);
        List<UUID> unheard = new ArrayList<>();
        for (Member m : members) {
            if (!m.localMember() && !out.containsKey(m.getUuid())) {
                unheard.add(m.getUuid());
            }
        }
        if (!unheard.isEmpty()) {
            readRemotely(unheard, out);
        }
        return out;
    }

    /**
     * Reads the entries of {@code ids} (other members), bounded by a stall as the contract says, into
     * {@code out}: each as read, else as last said; remembers what was read unless an entry event about
     * that member arrived after the read began (the event said something at least as new).
     */
    private void readRemotely(List<UUID> ids, Map<UUID, MemberStatus> out) {
        long began = heard.get();
        Map<UUID, CompletableFuture<String>> pending = new HashMap<>();
        for (UUID id : ids) {
            pending.put(id, map.getAsync(id.toString()).toCompletableFuture());
        }
        boolean stalled = false;
        int arrived = 0;
        for (Map.Entry<UUID, CompletableFuture<String>> e : pending.entrySet()) {
            UUID id = e.getKey();
            String text = null;
            while (!stalled) {
                try {
                    text = e.getValue().get(READ_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
                    break;
                } catch (TimeoutException slow) {
                    // a stall only if nothing at all arrived meanwhile: entries queued behind a slow
                    // partition thread are progress, an owner that answers nothing is not
                    int now = done(pending.values());
                    if (now == arrived) {
                        stalled = true; // from here on, only what has arrived already
                    }
                    arrived = now;
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    stalled = true;
                } catch (ExecutionException failed) {
                    break; // unreadable now: as last said
                }
            }
            if (stalled && text == null && e.getValue().isDone() && !e.getValue().isCompletedExceptionally()) {
                text = e.getValue().join();
            }
            MemberStatus status = text == null ? null : decode(id.toString(), text);
            if (status != null) {
                rememberRead(id, status, began);
            }
            status = lastRead.get(id);
            if (status != null) {
                out.put(id, status);
            }
        }
    }

    /** The point a read begins at, for {@link #rememberRead}. */
    long readBegins() {
        return heard.get();
    }

    /** Remembers what a read that began at {@code began} found for {@code id}, unless an entry event about it came since. */
    void rememberRead(UUID id, MemberStatus status, long began) {
        lastRead.compute(id, (k, before) -> heardAt.getOrDefault(k, 0L) > began ? before : status);
    }

    /**
     * The statuses of {@code members} as this member knows them now, without a remote read: its
     * own as it stands here, each other member's as last read by a poll (every {@link #pollInterval})
     * or carried by the board's entry events; members not heard from yet are absent. For views that
     * must answer while some owner of an entry is paused or cut off (the admin plane's).
     */
    Map<UUID, MemberStatus> known(Collection<Member> members) {
        Map<UUID, MemberStatus> out = new HashMap<>();
        for (Member m : members) {
            MemberStatus s = m.localMember() ? mine : lastRead.get(m.getUuid());
            if (s != null) {
                out.put(m.getUuid(), s);
            }
        }
        return out;
    }


    private static int done(Collection<CompletableFuture<String>> reads) {
        int n = 0;
        for (CompletableFuture<String> f : reads) {
            if (f.isDone()) {
                n++;
            }
        }
        return n;
    }

    private MemberStatus decode(String key, String text) {
        try {
            return MemberStatus.decode(text);
        } catch (IllegalArgumentException e) {
            synchronized (reportedMalformed) {
                if (reportedMalformed.add(key + '=' + text)) {
                    LOG.warnf("ketama: the board entry of member %s is unreadable and counts as absent: %s", key, e.getMessage());
                }
            }
            return null;
        }
    }

    /** The wait between two polls of a cluster of {@code members}: {@link #POLL}, or longer past {@link #POLL_READS_PER_SECOND}. */
    static Duration pollInterval(int members) {
        long millis = Math.max(POLL.toMillis(), (members * 1000L + POLL_READS_PER_SECOND - 1) / POLL_READS_PER_SECOND);
        return Duration.ofMillis(millis);
    }

    private void pollAndReschedule() {
        try {
            poll();
        } finally {
            try {
                followed.schedule(this::pollAndReschedule, pollInterval(hazelcast.getCluster().getMembers().size()));
            } catch (HazelcastInstanceNotActiveException e) {
                LOG.debug("ketama: board polls end: Hazelcast is stopping");
            }
        }
    }

    /** Reports serving-state changes seen by reading the members' entries. */
    private void poll() {
        try {
            Map<UUID, ServingState> now = new HashMap<>();
            for (Map.Entry<UUID, MemberStatus> e : read(hazelcast.getCluster().getMembers()).entrySet()) {
                now.put(e.getKey(), e.getValue().state());
            }
            if (!now.equals(polled)) {
                if (!polled.isEmpty() || !now.isEmpty()) {
                    onServingChange.accept("serving states read: " + now.values());
                }
                polled = now;
            }
        } catch (HazelcastInstanceNotActiveException e) {
            LOG.debug("ketama: board not read: Hazelcast is stopping");
        } catch (RuntimeException e) {
            LOG.warnf(e, "ketama: reading the member board failed; retrying at the next poll");
        }
    }

    private void resync() {
        try {
            UUID as = self();
            String stored = map.get(as.toString());
            String text = mine.encode();
            if (!text.equals(stored) || !as.equals(writtenAs)) {
                if (stored == null && as.equals(writtenAs)) {
                    LOG.infof("ketama: this member's board entry was missing (lost with the copies on a partitioned side, "
                            + "or dropped by a merge); writing it again");
                }
                write(as, text);
            }
            Set<Member> members = hazelcast.getCluster().getMembers();
            if (!members.isEmpty() && members.iterator().next().localMember()) {
                sweep(members);
            }
        } catch (HazelcastInstanceNotActiveException e) {
            LOG.debug("ketama: board not checked: Hazelcast is stopping");
        } catch (RuntimeException e) {
            LOG.warnf(e, "ketama: checking the member board failed; retrying within %s", RESYNC);
        }
    }

    /** Removes the entries of members no longer in the cluster (done by the oldest member alone). */
    private void sweep(Set<Member> members) {
        Set<String> present = new HashSet<>();
        for (Member m : members) {
            present.add(m.getUuid().toString());
        }
        for (String key : map.keySet()) {
            if (!present.contains(key)) {
                map.delete(key);
                LOG.debugf("ketama: removed the board entry of member %s, which left the cluster", key);
            }
        }
    }

    @Override
    public void close() {
        followed.close();
    }

    /**
     * Reports changes of serving state, not of generation or ring view, and only those of members in
     * the cluster now: readers never read the entry of a member that is not (it left, or it is the
     * UUID a merged member had before the merge), so a change of it cannot change the rings, and a
     * member that leaves is reported by its membership event.
     */
    private void onEntryEvent(EntryEvent<String, String> event) {
        String key = event.getKey();
        switch (event.getEventType()) {
            case ADDED -> {
                remember(event);
                if (isMember(key)) {
                    onServingChange.accept("member " + key + " " + stateOf(key, event.getValue()));
                }
            }
            case UPDATED -> {
                remember(event);
                String before = stateOf(key, event.getOldValue());
                String now = stateOf(key, event.getValue());
                if (!before.equals(now) && isMember(key)) {
                    onServingChange.accept("member " + key + " " + now);
                }
            }
            case REMOVED -> {
                if (isMember(key)) {
                    onServingChange.accept("member " + key + " left the board");
                }
            }
            case MERGED -> {
                remember(event);
                if (isMember(key)) {
                    onServingChange.accept("member " + key + " merged " + stateOf(key, event.getValue()));
                }
            }
            default -> {
                // other kinds of events are not asked for
            }
        }
    }

    /** Keeps what another member in the cluster now said, for {@link #known}; a removal is not a state change. */
    private void remember(EntryEvent<String, String> event) {
        if (event.getValue() == null || !isMember(event.getKey())) {
            return;
        }
        UUID id;
        try {
            id = UUID.fromString(event.getKey());
        } catch (IllegalArgumentException e) {
            return; // not a member's key: readers never look at it
        }
        MemberStatus s = decode(event.getKey(), event.getValue());
        if (s != null && !id.equals(self())) {
            lastRead.compute(id, (k, before) -> {
                heardAt.put(k, heard.incrementAndGet());
                return s;
            });
        }
    }

    private boolean isMember(String key) {
        for (Member m : hazelcast.getCluster().getMembers()) {
            if (m.getUuid().toString().equals(key)) {
                return true;
            }
        }
        return false;
    }

    private String stateOf(String key, String text) {
        if (text == null) {
            return "absent";
        }
        MemberStatus s = decode(key, text);
        return s == null ? "unreadable" : s.state().label();
    }
}
