package io.ketama.testing;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.util.ArrayList;
import java.util.List;

/**
 * The Hazelcast members a test started, so that whatever it did not stop itself is shut down at
 * the end: {@link #close()} in an {@code @AfterAll} or a try-with-resources. Thread-safe (tests
 * start and stop members from their own threads).
 */
public final class StartedMembers implements AutoCloseable {

    private final List<HazelcastInstance> started = new ArrayList<>();

    /** Starts a member with {@code config} and keeps it. */
    public HazelcastInstance start(Config config) {
        return track(Hazelcast.newHazelcastInstance(config));
    }

    /** Keeps {@code hz}, started elsewhere, to shut it down with the others. */
    public HazelcastInstance track(HazelcastInstance hz) {
        synchronized (started) {
            started.add(hz);
        }
        return hz;
    }

    /** Shuts {@code hz} down gracefully now (the others see it leave at once). */
    public void stop(HazelcastInstance hz) {
        synchronized (started) {
            started.remove(hz);
        }
        hz.shutdown();
    }

    /** Shuts down every member still kept. */
    @Override
    public void close() {
        List<HazelcastInstance> all;
        synchronized (started) {
            all = new ArrayList<>(started);
            started.clear();
        }
        all.forEach(HazelcastInstance::shutdown);
    }
}
