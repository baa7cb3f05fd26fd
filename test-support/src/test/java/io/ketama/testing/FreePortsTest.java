package io.ketama.testing;

import com.hazelcast.core.HazelcastInstance;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FreePortsTest {

    @Test
    void portsTakenAreConsecutiveFreeInTheRangeAndNeverHandedOutTwice() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            List<Integer> run = FreePorts.take(3);
            assertThat(run).hasSize(3);
            assertThat(run.get(1)).isEqualTo(run.get(0) + 1);
            assertThat(run.get(2)).isEqualTo(run.get(0) + 2);
            for (int port : run) {
                assertThat(port).isBetween(FreePorts.LOWEST, FreePorts.HIGHEST);
                assertThat(FreePorts.isFree(port)).isTrue();
                assertThat(seen.add(port)).as("port %d handed out twice", port).isTrue();
            }
        }
    }

    @Test
    void aPortSomeoneListensOnIsSkipped() throws IOException {
        int port = FreePorts.take();
        try (ServerSocket other = new ServerSocket()) {
            other.bind(new InetSocketAddress(InetAddress.getByName(LoopbackHazelcast.HOST), port));
            assertThat(FreePorts.isFree(port)).isFalse();
        }
        assertThat(FreePorts.isFree(port)).isTrue();
    }

    @Test
    void sharedPortsAreTheSameForTheSameKey() {
        String key = "shared-" + System.nanoTime();
        List<Integer> first = FreePorts.shared(key, 2);
        assertThat(FreePorts.shared(key, 2)).isEqualTo(first);
        assertThat(MemberPorts.shared(key, 2).all()).isEqualTo(first);
        assertThatThrownBy(() -> FreePorts.shared(key, 3)).hasMessageContaining("taken as 2 ports, asked for 3");
    }

    @Test
    void aMemberWhosePortWasTakenMeanwhileStartsOnANewPortThatTheOthersSeeToo() throws IOException {
        MemberPorts ports = MemberPorts.fresh(2);
        int lost = ports.port(0);
        String cluster = LoopbackHazelcast.clusterName("free-ports-retry");
        List<Integer> triedPorts = new ArrayList<>();
        try (StartedMembers started = new StartedMembers();
             ServerSocket thief = new ServerSocket()) {
            // another process binds member 0's port after it was chosen, before the member starts
            thief.bind(new InetSocketAddress(InetAddress.getByName(LoopbackHazelcast.HOST), lost));
            HazelcastInstance first = ports.bind(0, port -> {
                triedPorts.add(port);
                return started.start(LoopbackHazelcast.fixedPort(cluster, port, ports.all()));
            });
            assertThat(triedPorts).hasSize(2).startsWith(lost);
            assertThat(ports.port(0)).isEqualTo(triedPorts.get(1)).isNotEqualTo(lost);
            assertThat(first.getCluster().getLocalMember().getAddress().getPort()).isEqualTo(ports.port(0));
            assertThat(ports.all()).doesNotContain(lost);
            // the next member's list names member 0 at its new port: it joins
            HazelcastInstance second = ports.bind(1, port -> started.start(LoopbackHazelcast.fixedPort(cluster, port, ports.all())));
            Await.until(() -> first.getCluster().getMembers().size() == 2 && second.getCluster().getMembers().size() == 2,
                    Duration.ofSeconds(60), "the two members to form a cluster");
        }
    }

    @Test
    void onlyABindFailureIsRetriedAndOnlyAFewTimes() {
        MemberPorts ports = MemberPorts.fresh(1);
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> ports.bind(0, port -> {
            calls.incrementAndGet();
            throw new IllegalStateException("refused to join");
        })).hasMessage("refused to join");
        assertThat(calls).hasValue(1);
        assertThatThrownBy(() -> ports.bind(0, port -> {
            calls.incrementAndGet();
            throw new IllegalStateException("Port [" + port + "] is already in use and auto-increment is disabled.");
        })).hasMessageContaining("already in use");
        assertThat(calls).hasValue(1 + MemberPorts.TRIES);
        assertThatThrownBy(() -> ports.port(1)).hasMessageContaining("member index from 0 to 0, was 1");
    }
}
