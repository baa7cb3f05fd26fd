package io.ketama.quarkus.runtime;

import com.hazelcast.core.HazelcastInstance;
import io.ketama.quarkus.LoadBoardEntry;
import io.ketama.quarkus.PublishedLoad;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Reads the cluster's load board ({@link LoadBoardEntry#MAP}) every {@link #READ_EVERY} into a
 * {@link PublishedLoad}, for {@code RingSelector.publishedLoad()}: the same reading on a member (its
 * replica of the replicated map, a local read) and on a client (one remote call a read).
 *
 * <h2>What is fresh</h2>
 * An entry counts while its sequence moved within {@link #STALE_WINDOWS} of its own windows (at least
 * {@code STALE_WINDOWS} reads): the service's members write every window, so one that stopped is
 * paused, cut off or gone, and its last rate no longer says anything. An entry first seen counts from
 * then. A value of another format, a malformed one, or one under a key that is not a UUID is skipped.
 * When no read has succeeded for {@code STALE_WINDOWS × READ_EVERY} (a client cut off, a read that
 * hangs) the answer is {@link PublishedLoad#NONE}: no load known, every key to its owner.
 *
 * <p>Reads run on one daemon thread of their own, never on a caller's: {@link #current()} reads a
 * volatile field and the clock.
 */
final class PublishedLoads implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(PublishedLoads.class);

    /** How often the board is read: the service's default window. */
    static final Duration READ_EVERY = Duration.ofMillis(500);
    /** Windows (and reads, at least) without a new sequence after which an entry is left out. */
    static final int STALE_WINDOWS = 3;

    private final HazelcastInstance hazelcast;
    private final ScheduledExecutorService thread;
    /** Per board key: the sequence seen last and when it changed (reader thread only). */
    private final Map<String, long[]> seen = new HashMap<>();
    private volatile Reading reading = new Reading(PublishedLoad.NONE, Long.MIN_VALUE);

    private record Reading(PublishedLoad load, long readAtNanos) {
    }

    private PublishedLoads(HazelcastInstance hazelcast) {
        this.hazelcast = Objects.requireNonNull(hazelcast, "hazelcast");
        this.thread = Executors.newSingleThreadScheduledExecutor(FollowedMap.daemon("ketama-load-reader"));
    }

    /** Reads the board once now (on the caller's thread), then every {@link #READ_EVERY} on its own. */
    static PublishedLoads start(HazelcastInstance hazelcast) {
        PublishedLoads loads = new PublishedLoads(hazelcast);
        loads.safeRead();
        long every = READ_EVERY.toNanos();
        loads.thread.scheduleWithFixedDelay(loads::safeRead, every, every, TimeUnit.NANOSECONDS);
        return loads;
    }

    /** The board as last read; {@link PublishedLoad#NONE} when no read succeeded recently. */
    PublishedLoad current() {
        Reading r = reading;
        if (System.nanoTime() - r.readAtNanos() > STALE_WINDOWS * READ_EVERY.toNanos()) {
            return PublishedLoad.NONE;
        }
        return r.load();
    }

    private void safeRead() {
        try {
            read();
        } catch (RuntimeException e) {
            if (hazelcast.getLifecycleService().isRunning()) {
                LOG.debugf(e, "the load board could not be read; the last reading stands until it is %s old",
                        READ_EVERY.multipliedBy(STALE_WINDOWS));
            }
        }
    }

    private synchronized void read() {
        Map<String, long[]> board = new HashMap<>();
        for (Map.Entry<Object, Object> e : hazelcast.<Object, Object>getReplicatedMap(LoadBoardEntry.MAP).entrySet()) {
            if (e.getKey() instanceof String key && e.getValue() instanceof long[] value) {
                board.put(key, value);
            }
        }
        long now = System.nanoTime();
        Map<UUID, Long> loads = new HashMap<>();
        seen.keySet().retainAll(board.keySet());
        for (Map.Entry<String, long[]> e : board.entrySet()) {
            LoadBoardEntry entry = LoadBoardEntry.parse(e.getValue());
            UUID member = uuid(e.getKey());
            if (entry == null || member == null) {
                continue;
            }
            long[] s = seen.get(e.getKey());
            if (s == null) {
                s = new long[] {entry.sequence(), now, 0};
                seen.put(e.getKey(), s);
            } else if (s[0] != entry.sequence()) {
                s[0] = entry.sequence();
                s[1] = now;
                s[2] = 0;
            } else {
                s[2]++;
            }
            long staleAfter = STALE_WINDOWS * Math.max(entry.windowNanos(), READ_EVERY.toNanos());
            boolean stale = s[2] >= STALE_WINDOWS && now - s[1] >= staleAfter;
            if (!stale) {
                loads.put(member, Math.round(entry.rate()));
            }
        }
        reading = new Reading(new PublishedLoad(loads), now);
    }

    private static UUID uuid(String key) {
        try {
            return UUID.fromString(key);
        } catch (IllegalArgumentException notAUuid) {
            return null;
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
