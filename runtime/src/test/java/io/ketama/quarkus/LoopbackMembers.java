package io.ketama.quarkus;

import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.testing.Await;
import io.ketama.testing.LoopbackHazelcast;
import io.ketama.testing.StartedMembers;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Real Hazelcast members on 127.0.0.1 for runtime tests ({@link LoopbackHazelcast}): one cluster
 * per test class and test run, fixed ports from the given range (engineer "cluster"'s block,
 * 20701..20899), TCP/IP join over that list only.
 */
final class LoopbackMembers implements AutoCloseable {

    static final Duration DEADLINE = Duration.ofSeconds(60);

    private final String clusterName;
    private final int firstPort;
    private final int lastPort;
    private final StartedMembers started = new StartedMembers();

    LoopbackMembers(String clusterName, int firstPort, int lastPort) {
        if (firstPort < 20701 || lastPort > 20899 || firstPort > lastPort) {
            throw new IllegalArgumentException("test ports must lie in 20701..20899, were " + firstPort + ".." + lastPort);
        }
        this.clusterName = LoopbackHazelcast.clusterName(clusterName);
        this.firstPort = firstPort;
        this.lastPort = lastPort;
    }

    /** A member configuration that joins this cluster on {@code port}. */
    Config config(int port) {
        return LoopbackHazelcast.fixedPort(clusterName, port, LoopbackHazelcast.ports(firstPort, lastPort));
    }

    HazelcastInstance start(int port) {
        return start(config(port));
    }

    HazelcastInstance start(Config config) {
        return started.start(config);
    }

    /** Stops {@code hz}, started elsewhere, with the others. */
    HazelcastInstance track(HazelcastInstance hz) {
        return started.track(hz);
    }

    void stop(HazelcastInstance hz) {
        started.stop(hz);
    }

    @Override
    public void close() {
        started.close();
    }

    /** Polls until {@code condition} holds; fails after {@link #DEADLINE} saying what was awaited. */
    static void await(BooleanSupplier condition, String what) {
        Await.until(condition, DEADLINE, what);
    }
}
