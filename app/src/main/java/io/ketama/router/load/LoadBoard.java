package io.ketama.router.load;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.replicatedmap.ReplicatedMap;
import io.ketama.quarkus.LoadBoardEntry;
import io.ketama.router.serving.Members;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.jboss.logging.Logger;

/**
 * Where the members tell each other their load: after each window of {@link LoadSettings#window},
 * every member writes its entry in the Hazelcast replicated map {@value #MAP} (keyed by its member
 * UUID) and reads everyone's, and from them sets its {@link OwnerLoad}'s bound for the windows to
 * come and the {@link LoadView} its entry path reads to pick spill targets.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>An entry is a {@link LoadBoardEntry} (the extension's: its {@code RingSelector.publishedLoad()}
 *       reads the same board, on members and clients): what the member served in its last window, how
 *       long that window was, and its weight on the rings (0 while it is not on them). A reader skips a
 *       format it does not know (a later release may publish another beside it), so the board itself
 *       needs no version on the forward channels.</li>
 *   <li>A replicated map is read locally (every member holds every entry), so the window's work (the
 *       roll of {@link OwnerLoad}'s count, the read, the bound, the view) never waits for another
 *       member. A write goes to the entry's partition owner, which may be paused or cut off: writes
 *       (and removals) run on a thread of their own, one at a time, each carrying the latest entry, so
 *       a write that hangs only makes this member's entry stale for the others, never this member's
 *       windows late. The price is staleness: an entry is up to a window or two old, and one whose
 *       sequence has not moved for {@value #STALE_WINDOWS} of this member's windows is left out (a
 *       member cut off, paused or gone); the oldest member removes such entries of members no longer in
 *       the cluster.</li>
 *   <li>This member's own numbers are always its own, never what the map holds.</li>
 *   <li>The bound, of a member of weight {@code w}, for a window {@code Δ}:
 *       {@code hard = max(⌈c · (L·Δ + 1) · w / W⌉, ⌈minRate · Δ⌉)}, {@code soft} the midpoint between
 *       the mean share {@code (L·Δ + 1) · w / W} and {@code hard} (see {@link OwnerLoad}); none while
 *       bounded loads are off, or this member has no weight, or no member is on the rings.</li>
 * </ul>
 * One thread of its own does this; nothing here runs on the request path.
 */
public final class LoadBoard implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(LoadBoard.class);

    /** The replicated map that holds the board. */
    public static final String MAP = LoadBoardEntry.MAP;
    /** Windows without a new sequence after which a member's entry is left out. */
    static final int STALE_WINDOWS = 3;

    private final HazelcastInstance hazelcast;
    private final OwnerLoad load;
    private final IntSupplier weight;
    private final LoadSettings settings;
    private final ScheduledExecutorService thread;
    /** Writes and removals, which may wait for another member: never on {@link #thread}. */
    private final java.util.concurrent.ExecutorService writer;
    /** The latest entry not yet written, and its key; null: none. */
    private final java.util.concurrent.atomic.AtomicReference<Unwritten> unwritten = new java.util.concurrent.atomic.AtomicReference<>();

    private record Unwritten(String key, long[] entry) {
    }
    /** Entries to remove (this member's under an old UUID, dead members'). */
    private final java.util.concurrent.ConcurrentLinkedQueue<String> removals = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean();
    private ScheduledFuture<?> ticks;
    /** Per member UUID (as written in the map): the sequence seen last and the window it changed in. */
    private final Map<String, long[]> seen = new HashMap<>();
    private long window;
    private long sequence;
    /** The key this member last wrote its entry under (its UUID changes on a merge). */
    private String writtenAs;
    private volatile LoadView view = LoadView.EMPTY;
    private volatile boolean closed;

    private LoadBoard(HazelcastInstance hazelcast, OwnerLoad load, IntSupplier weight) {
        this.hazelcast = hazelcast;
        this.load = load;
        this.weight = weight;
        this.settings = load.settings();
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "ketama-router-load");
            t.setDaemon(true);
            return t;
        });
        this.writer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "ketama-router-load-writer");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts publishing {@code load} every window and setting its bound from the board.
     *
     * @param weight this member's weight on the rings now, 0 while it is not on them
     */
    public static LoadBoard start(HazelcastInstance hazelcast, OwnerLoad load, IntSupplier weight) {
        LoadBoard board = new LoadBoard(hazelcast, load, weight);
        long nanos = board.settings.window().toNanos();
        board.ticks = board.thread.scheduleAtFixedRate(board::safeTick, nanos, nanos, TimeUnit.NANOSECONDS);
        return board;
    }

    /** A board that {@link #tick} drives by hand (tests). */
    static LoadBoard manual(HazelcastInstance hazelcast, OwnerLoad load, IntSupplier weight) {
        return new LoadBoard(hazelcast, load, weight);
    }

    /** The cluster's load as read after the last window. */
    public LoadView view() {
        return view;
    }

    /** Whether {@code member} had room under its bound in its last window (on the request path: one set lookup). */
    public boolean hasRoom(UUID member) {
        return view.hasRoom(member);
    }

    private void safeTick() {
        try {
            tick();
        } catch (RuntimeException e) {
            if (closed) {
                return;
            }
            if (!hazelcast.getLifecycleService().isRunning()) {
                thread.shutdown(); // its member is gone: nothing to publish to, its entry goes stale
                return;
            }
            LOG.debugf(e, "the load board could not be read or written this window; the bound stays as it was");
        }
    }

    /** Ends a window: publishes what this member served in it, reads the others, sets the bound. */
    synchronized void tick() {
        if (closed) {
            return;
        }
        window++;
        long served = load.roll();
        long windowNanos = settings.window().toNanos();
        int myWeight = Math.max(0, weight.getAsInt());
        Member local = hazelcast.getCluster().getLocalMember();
        String me = local.getUuid().toString();
        ReplicatedMap<String, long[]> map = hazelcast.getReplicatedMap(MAP);
        if (writtenAs != null && !writtenAs.equals(me)) {
            removals.add(writtenAs); // merged under a new UUID: the old entry goes at once
        }
        LoadBoardEntry mine = new LoadBoardEntry(++sequence, served, windowNanos, myWeight);
        write(me, mine.toArray());
        writtenAs = me;

        Map<UUID, Member> present = new HashMap<>();
        List<Member> order = new ArrayList<>();
        for (Member m : hazelcast.getCluster().getMembers()) {
            present.put(m.getUuid(), m);
            order.add(m);
        }
        boolean oldest = !order.isEmpty() && order.get(0).localMember();
        Map<UUID, LoadBoardEntry> fresh = new HashMap<>();
        Set<String> keys = new HashSet<>();
        for (Map.Entry<String, long[]> e : map.entrySet()) {
            keys.add(e.getKey());
            LoadBoardEntry v = LoadBoardEntry.parse(e.getValue());
            if (v == null) {
                continue; // a format this release does not read
            }
            long[] s = seen.computeIfAbsent(e.getKey(), k -> new long[] {Long.MIN_VALUE, window});
            if (s[0] != v.sequence()) {
                s[0] = v.sequence();
                s[1] = window;
            }
            UUID uuid;
            try {
                uuid = UUID.fromString(e.getKey());
            } catch (IllegalArgumentException notAUuid) {
                continue;
            }
            boolean stale = window - s[1] >= STALE_WINDOWS;
            if (stale && oldest && !present.containsKey(uuid)) {
                removals.add(e.getKey()); // a member gone without removing its entry
                write(null, null);
                continue;
            }
            if (!stale && !e.getKey().equals(me)) {
                fresh.put(uuid, v);
            }
        }
        seen.keySet().retainAll(keys);
        fresh.put(local.getUuid(), mine);

        double clusterRate = 0;
        long totalWeight = 0;
        for (LoadBoardEntry v : fresh.values()) {
            clusterRate += v.rate();
            totalWeight += v.weight();
        }
        if (settings.enabled() && myWeight > 0 && totalWeight > 0) {
            load.bound(bound(settings, clusterRate, myWeight, totalWeight));
        } else {
            load.unbound();
        }
        List<MemberLoad> members = new ArrayList<>(fresh.size());
        Set<UUID> full = new HashSet<>();
        List<UUID> inOrder = new ArrayList<>(fresh.keySet());
        inOrder.sort(java.util.Comparator.comparingInt(u -> {
            int i = order.indexOf(present.get(u));
            return i < 0 ? Integer.MAX_VALUE : i;
        }));
        for (UUID u : inOrder) {
            LoadBoardEntry v = fresh.get(u);
            int w = v.weight();
            double rate = v.rate();
            double boundRate = settings.enabled() && w > 0 && totalWeight > 0
                    ? Math.max(settings.factor() * clusterRate * w / totalWeight, settings.minRate())
                    : Double.POSITIVE_INFINITY;
            Member m = present.get(u);
            MemberLoad ml = new MemberLoad(u, m == null ? u.toString() : Members.address(m), rate, w, boundRate,
                    u.equals(local.getUuid()));
            members.add(ml);
            if (ml.full()) {
                full.add(u);
            }
        }
        view = new LoadView(window, clusterRate, totalWeight, totalWeight == 0 ? 0 : clusterRate / totalWeight, members, full);
    }

    /** Writes {@code entry} under {@code key} (null: only the removals) on the writer, after any write under way. */
    private void write(String key, long[] entry) {
        if (entry != null) {
            unwritten.set(new Unwritten(key, entry));
        }
        if (writing.compareAndSet(false, true)) {
            try {
                writer.execute(this::drain);
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                writing.set(false);
            }
        }
    }

    private void drain() {
        try {
            ReplicatedMap<String, long[]> map = hazelcast.getReplicatedMap(MAP);
            for (String gone = removals.poll(); gone != null; gone = removals.poll()) {
                map.remove(gone);
            }
            Unwritten latest = unwritten.getAndSet(null);
            if (latest != null && !closed) {
                map.put(latest.key(), latest.entry());
            }
        } catch (RuntimeException e) {
            if (!closed && hazelcast.getLifecycleService().isRunning()) {
                LOG.debugf(e, "the load board could not be written this window");
            }
        } finally {
            writing.set(false);
            if ((unwritten.get() != null || !removals.isEmpty()) && !closed) {
                write(null, null);
            }
        }
    }

    /**
     * The bound of a member of {@code weight} in a window of {@link LoadSettings#window} while the
     * cluster serves {@code clusterRate} a second over {@code totalWeight}.
     */
    static OwnerLoad.Bound bound(LoadSettings settings, double clusterRate, int weight, long totalWeight) {
        double perWindow = clusterRate * settings.window().toNanos() / 1e9;
        double mean = (perWindow + 1) * weight / totalWeight;
        long floor = settings.minPerWindow();
        long hard = Math.max((long) Math.ceil(settings.factor() * mean), floor);
        long soft = Math.max((long) Math.ceil(mean * (1 + settings.factor()) / 2), floor);
        return new OwnerLoad.Bound(hard, Math.min(soft, hard));
    }

    /** Stops publishing and removes this member's entry (the others stop counting it at once). */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (ticks != null) {
            ticks.cancel(false);
        }
        thread.shutdownNow();
        String mine = writtenAs;
        if (mine != null) {
            // after any write under way, and at most a second: a partition owner that does not answer lets it go stale
            java.util.concurrent.Future<?> removed = writer.submit(() -> hazelcast.getReplicatedMap(MAP).remove(mine));
            try {
                removed.get(1, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                LOG.debug("this member's load entry could not be removed: it goes stale instead", e);
            }
        }
        writer.shutdownNow();
    }
}
