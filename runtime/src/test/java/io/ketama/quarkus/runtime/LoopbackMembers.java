package io.ketama.quarkus.runtime;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.testing.Await;
import io.ketama.testing.LoopbackHazelcast;
import io.ketama.testing.MemberPorts;
import io.ketama.testing.StartedMembers;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Real Hazelcast members on 127.0.0.1 for runtime tests ({@link LoopbackHazelcast}): one cluster
 * per instance and test run, its members' ports chosen when it is made ({@link MemberPorts}), TCP/IP
 * join over that list only. Members are named by index (0 to size - 1), never by port.
 */
final class LoopbackMembers implements AutoCloseable {

    static final Duration DEADLINE = Duration.ofSeconds(60);

    private final String clusterName;
    private final MemberPorts ports;
    private final StartedMembers started = new StartedMembers();

    LoopbackMembers(String clusterName, int size) {
        this.clusterName = LoopbackHazelcast.clusterName(clusterName);
        this.ports = MemberPorts.fresh(size);
    }

    /** Starts member {@code member} (from 0) of this cluster on its port. */
    HazelcastInstance start(int member) {
        return start(member, Hazelcast::newHazelcastInstance);
    }

    /**
     * Starts member {@code member} with {@code newMember}, given the member's configuration (which
     * it may change first); if another process took the member's port, again on a new port
     * ({@link MemberPorts#bind}), so {@code newMember} may be called more than once.
     */
    HazelcastInstance start(int member, Function<Config, HazelcastInstance> newMember) {
        return started.track(ports.bind(member, port -> newMember.apply(LoopbackHazelcast.fixedPort(clusterName, port, ports.all()))));
    }

    /** Member {@code member}'s port. */
    int port(int member) {
        return ports.port(member);
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
