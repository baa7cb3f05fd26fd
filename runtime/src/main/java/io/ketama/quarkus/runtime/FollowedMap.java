package io.ketama.quarkus.runtime;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.core.LifecycleEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryMergedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A Hazelcast map of text entries that this member follows, the way {@link ClusterMigration} and
 * {@link MemberBoard} follow theirs: an entry listener that hears a change at once, a re-read on a
 * fixed delay that catches what the listener missed (and carries every change alone where Hazelcast
 * refuses the listener), and the lifecycle event of a split-brain merge, after which a member
 * reads at once rather than at the next re-read.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>One daemon thread, made by the factory given, runs every task given here, one at a time
 *       in the order given: the re-reads, and whatever the owner hands it (its writes, its reaction
 *       to an event), so the owner's state on that thread needs no lock.</li>
 *   <li>Entry events are delivered on Hazelcast's event thread, as Hazelcast delivers them: the
 *       owner returns at once, handing slow work to {@link #execute}.</li>
 *   <li>A task that fails is logged and does not stop later ones (nor the re-reads, which a thrown
 *       exception would end for good in a {@link ScheduledExecutorService}); a task given after
 *       {@link #close} is dropped, logged at debug.</li>
 *   <li>{@link #close} stops the thread first and then removes the listeners, so no task starts
 *       on a closed owner; it may be called more than once.</li>
 * </ul>
 */
final class FollowedMap implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(FollowedMap.class);

    private final HazelcastInstance hazelcast;
    private final IMap<String, String> map;
    private final ScheduledExecutorService thread;
    private volatile UUID entryListener;
    private volatile UUID mergeListener;

    /** Follows the map {@code name} of {@code hazelcast}, its tasks on one thread made by {@code threads}. */
    FollowedMap(HazelcastInstance hazelcast, String name, ThreadFactory threads) {
        this.hazelcast = Objects.requireNonNull(hazelcast, "hazelcast");
        this.map = hazelcast.getMap(Objects.requireNonNull(name, "name"));
        this.thread = Executors.newSingleThreadScheduledExecutor(Objects.requireNonNull(threads, "threads"));
    }

    /** A factory of one daemon thread named {@code name}. */
    static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    IMap<String, String> map() {
        return map;
    }

    /**
     * Starts hearing the map: {@code onEvent} for every entry added, updated, removed or merged
     * (of {@code key} alone, or of every key where {@code key} is null; values included), and
     * {@code onMerge} on this member's thread once this member has merged after a split-brain.
     * Call before the first read, so that a change between the two is not missed. Where Hazelcast
     * refuses the entry listener (as it does when its async event executor is saturated), this
     * says so in the log and the re-reads carry the changes alone.
     */
    void listen(String key, Consumer<EntryEvent<String, String>> onEvent, Runnable onMerge) {
        Objects.requireNonNull(onEvent, "onEvent");
        Objects.requireNonNull(onMerge, "onMerge");
        Events events = new Events(onEvent);
        try {
            entryListener = key == null ? map.addEntryListener(events, true) : map.addEntryListener(events, key, false);
        } catch (RuntimeException e) {
            LOG.infof("ketama: no entry events from map %s (%s); following it by its re-reads alone", map.getName(), e);
        }
        mergeListener = hazelcast.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.MERGED) {
                execute(onMerge);
            }
        });
    }

    /** Runs {@code reread} on this member's thread every {@code every}, the first time after one {@code every}. */
    void rereadEvery(Duration every, Runnable reread) {
        Runnable guarded = guarded(reread);
        try {
            thread.scheduleWithFixedDelay(guarded, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.debugf("ketama: map %s not re-read: closing", map.getName());
        }
    }

    /** Runs {@code task} once on this member's thread after {@code delay}. */
    void schedule(Runnable task, Duration delay) {
        try {
            thread.schedule(guarded(task), delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.debugf("ketama: task on map %s not scheduled: closing", map.getName());
        }
    }

    /** Runs {@code task} on this member's thread, after the tasks given before it. */
    void execute(Runnable task) {
        try {
            thread.execute(guarded(task));
        } catch (RejectedExecutionException e) {
            LOG.debugf("ketama: task on map %s dropped: closing", map.getName());
        }
    }

    /**
     * Runs {@code task} on this member's thread, for a caller that waits for its outcome: failures
     * reach the caller through the future, not the log.
     *
     * @throws RejectedExecutionException once closed
     */
    <T> Future<T> submit(Callable<T> task) {
        return thread.submit(task);
    }

    private Runnable guarded(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (HazelcastInstanceNotActiveException e) {
                LOG.debugf("ketama: task on map %s skipped: Hazelcast is stopping", map.getName());
            } catch (RuntimeException e) {
                LOG.warnf(e, "ketama: task on map %s failed; the map is read again at its next re-read", map.getName());
            }
        };
    }

    @Override
    public void close() {
        thread.shutdownNow();
        try {
            UUID entries = entryListener;
            if (entries != null) {
                map.removeEntryListener(entries);
                entryListener = null;
            }
            UUID merges = mergeListener;
            if (merges != null) {
                hazelcast.getLifecycleService().removeLifecycleListener(merges);
                mergeListener = null;
            }
        } catch (RuntimeException e) {
            LOG.debugf("ketama: listeners of map %s not removed: %s", map.getName(), e);
        }
    }

    /** Hands every kind of entry event to one consumer: each owner tells them apart by {@link EntryEvent#getEventType()}. */
    private static final class Events implements EntryAddedListener<String, String>, EntryUpdatedListener<String, String>,
            EntryRemovedListener<String, String>, EntryMergedListener<String, String> {

        private final Consumer<EntryEvent<String, String>> onEvent;

        Events(Consumer<EntryEvent<String, String>> onEvent) {
            this.onEvent = onEvent;
        }

        @Override
        public void entryAdded(EntryEvent<String, String> event) {
            onEvent.accept(event);
        }

        @Override
        public void entryUpdated(EntryEvent<String, String> event) {
            onEvent.accept(event);
        }

        @Override
        public void entryRemoved(EntryEvent<String, String> event) {
            onEvent.accept(event);
        }

        @Override
        public void entryMerged(EntryEvent<String, String> event) {
            onEvent.accept(event);
        }
    }
}
