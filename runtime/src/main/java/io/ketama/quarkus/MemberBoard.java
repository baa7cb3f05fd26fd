package io.ketama.quarkus;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryMergedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 *       read of the members' entries every {@link #POLL} (which alone carries the changes where
 *       Hazelcast refuses the listener); changes of only the applied generation or ring view are
 *       not reported (they would make every rebuild cause another).</li>
 *   <li>Readers take the entries of the members that are in the cluster now, so the entry of a
 *       member that died without clearing it is never read; the oldest member removes such entries
 *       within {@link #RESYNC}. A member whose entry was lost writes it again within {@link #RESYNC}.
 *       After a split-brain merge each member's own write, repeated every {@link #RESYNC}, restores
 *       its entry whatever the merge kept.</li>
 * </ul>
 */
final class MemberBoard implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(MemberBoard.class);

    /** The Hazelcast map that holds the board. */
    static final String MAP = "ketama.members";
    /** How often a member checks its own entry and the oldest member sweeps entries of members gone. */
    static final Duration RESYNC = Duration.ofSeconds(2);
    /** How often a member reads the serving states of the cluster's members. */
    static final Duration POLL = Duration.ofMillis(250);
    /** Longest wait for this member's own write. */
    static final Duration WRITE_TIMEOUT = Duration.ofSeconds(30);

    private final HazelcastInstance hazelcast;
    private final UUID self;
    private final Consumer<String> onServingChange;
    private final IMap<String, String> map;
    private final ScheduledExecutorService writer;
    private final Set<String> reportedMalformed = new HashSet<>();
    private volatile MemberStatus mine;
    /** The text last written by this member (writer thread only). */
    private String written;
    private UUID listenerId;
    /** Serving states of the members as last polled (poller thread only). */
    private Map<UUID, ServingState> polled = Map.of();

    /**
     * @param onServingChange told (on a Hazelcast event thread: return at once) why some member's
     *                        serving state changed
     */
    MemberBoard(HazelcastInstance hazelcast, Consumer<String> onServingChange) {
        this.hazelcast = Objects.requireNonNull(hazelcast, "hazelcast");
        this.self = hazelcast.getCluster().getLocalMember().getUuid();
        this.onServingChange = Objects.requireNonNull(onServingChange, "onServingChange");
        this.map = hazelcast.getMap(MAP);
        this.writer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ketama-board");
            t.setDaemon(true);
            return t;
        });
    }

    /** Writes this member's first status and starts listening; returns once it is written. */
    void start(MemberStatus initial) {
        mine = Objects.requireNonNull(initial, "initial");
        listenerId = ClusterMigration.listen(map, new Changes(), null);
        flush();
        writer.scheduleWithFixedDelay(this::resync, RESYNC.toMillis(), RESYNC.toMillis(), TimeUnit.MILLISECONDS);
        writer.scheduleWithFixedDelay(this::poll, POLL.toMillis(), POLL.toMillis(), TimeUnit.MILLISECONDS);
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
        try {
            writer.execute(this::writeMine);
        } catch (RejectedExecutionException e) {
            LOG.debug("ketama: member status not written: closing");
        }
    }

    /** Waits until this member's latest status is written to the cluster. */
    void flush() {
        try {
            writer.submit(this::writeMine).get(WRITE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing this member's status", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("writing this member's status failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("writing this member's status took longer than " + WRITE_TIMEOUT, e);
        }
    }

    private void writeMine() {
        String text = mine.encode();
        if (!text.equals(written)) {
            map.set(self.toString(), text);
            written = text;
        }
    }

    /**
     * The statuses of {@code members} (those without an entry, or with an unreadable one, are
     * absent). A remote read: call it off the request path.
     */
    Map<UUID, MemberStatus> read(Collection<Member> members) {
        Set<String> keys = new HashSet<>();
        for (Member m : members) {
            keys.add(m.getUuid().toString());
        }
        Map<UUID, MemberStatus> out = new HashMap<>();
        for (Map.Entry<String, String> e : map.getAll(keys).entrySet()) {
            MemberStatus status = decode(e.getKey(), e.getValue());
            if (status != null) {
                out.put(UUID.fromString(e.getKey()), status);
            }
        }
        return out;
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
            LOG.warnf(e, "ketama: reading the member board failed; retrying within %s", POLL);
        }
    }

    private void resync() {
        try {
            String stored = map.get(self.toString());
            String text = mine.encode();
            if (!text.equals(stored)) {
                if (stored == null) {
                    LOG.infof("ketama: this member's board entry was missing (lost, or dropped by a merge); writing it again");
                }
                map.set(self.toString(), text);
                written = text;
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
        writer.shutdownNow();
        try {
            if (listenerId != null) {
                map.removeEntryListener(listenerId);
            }
        } catch (RuntimeException e) {
            LOG.debugf("ketama: board listener not removed: %s", e);
        }
    }

    /** Reports changes of serving state, not of generation or ring view. */
    private final class Changes implements EntryAddedListener<String, String>, EntryUpdatedListener<String, String>,
            EntryRemovedListener<String, String>, EntryMergedListener<String, String> {

        @Override
        public void entryAdded(EntryEvent<String, String> event) {
            onServingChange.accept("member " + event.getKey() + " " + stateOf(event.getKey(), event.getValue()));
        }

        @Override
        public void entryUpdated(EntryEvent<String, String> event) {
            String before = stateOf(event.getKey(), event.getOldValue());
            String now = stateOf(event.getKey(), event.getValue());
            if (!before.equals(now)) {
                onServingChange.accept("member " + event.getKey() + " " + now);
            }
        }

        @Override
        public void entryRemoved(EntryEvent<String, String> event) {
            onServingChange.accept("member " + event.getKey() + " left the board");
        }

        @Override
        public void entryMerged(EntryEvent<String, String> event) {
            onServingChange.accept("member " + event.getKey() + " merged " + stateOf(event.getKey(), event.getValue()));
        }

        private String stateOf(String key, String text) {
            if (text == null) {
                return "absent";
            }
            MemberStatus s = decode(key, text);
            return s == null ? "unreadable" : s.state().label();
        }
    }
}
