package io.ketama.quarkus.runtime;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.core.HashStyle;
import io.ketama.quarkus.ExcludedMember;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static io.ketama.quarkus.runtime.LoopbackMembers.await;
import static io.ketama.quarkus.runtime.Members.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The member allowlist on real members, on 127.0.0.1 and 127.0.0.2 (both loopback): the master
 * refuses the join of a member at an address the list does not name, and that member stops; a
 * member admitted anyway (by a master without the list) never reaches the rings and is listed as
 * excluded with the reason.
 */
class MemberAllowlistTest {

    @Test
    void entriesAreCheckedAndMatchAddresses() {
        MemberAllowlist list = MemberAllowlist.of(List.of("10.0.1.*", "192.168.7.9", "[::1]"));
        assertThat(list.allows(member("10.0.1.200", 5701))).isTrue();
        assertThat(list.allows(member("192.168.7.9", 5701))).isTrue();
        assertThat(list.allows(member("192.168.7.10", 5701))).isFalse();
        assertThat(list.allows(member("10.0.2.1", 5701))).isFalse();
        assertThat(list.allows(member("::1", 5701))).isTrue();
        assertThat(list.allows(member("fe80::2", 5701))).isFalse();
        for (String bad : new String[] {"10.0.1", "10.0.1.256", "10.0.*.1x", "host.example.com", "10.0.1.0/24", ""}) {
            assertThatThrownBy(() -> MemberAllowlist.of(List.of(bad)))
                    .hasMessageContaining("quarkus.ketama.hazelcast.member-allowlist entry '" + bad + "' is not allowed");
        }
    }

    @Test
    void theMasterRefusesTheJoinOfAMemberAtAnAddressNotListed() {
        MemberAllowlist onlyFirstLoopback = MemberAllowlist.of(List.of("127.0.0.1"));
        try (LoopbackMembers members = new LoopbackMembers("ketama-allowlist-join", 3)) {
            HazelcastInstance master = members.start(0, c -> HazelcastHardening.newMember(c, onlyFirstLoopback));
            HazelcastInstance stranger;
            try {
                stranger = members.start(1, c -> HazelcastHardening.newMember(on("127.0.0.2", c), onlyFirstLoopback));
            } catch (IllegalStateException refused) { // Hazelcast: the node failed to start
                stranger = null;
            }
            HazelcastInstance refused = stranger;
            await(() -> refused == null || !refused.getLifecycleService().isRunning(), "the refused member to stop");
            assertThat(master.getCluster().getMembers()).hasSize(1);

            HazelcastInstance allowed = members.start(2, c -> HazelcastHardening.newMember(c, onlyFirstLoopback));
            await(() -> master.getCluster().getMembers().size() == 2, "the allowed member to join");
            assertThat(allowed.getCluster().getMembers()).extracting(m -> m.getAddress().getHost()).containsOnly("127.0.0.1");
        }
        // the control: the same member at 127.0.0.2 joins a master whose list names it
        try (LoopbackMembers members = new LoopbackMembers("ketama-allowlist-join-control", 2)) {
            MemberAllowlist wholeLoopback = MemberAllowlist.of(List.of("127.0.0.*"));
            HazelcastInstance master = members.start(0, c -> HazelcastHardening.newMember(c, wholeLoopback));
            HazelcastInstance listed = members.start(1, c -> HazelcastHardening.newMember(on("127.0.0.2", c), wholeLoopback));
            await(() -> master.getCluster().getMembers().size() == 2, "the listed member at 127.0.0.2 to join");
            assertThat(listed.getCluster().getLocalMember().getAddress().getHost()).isEqualTo("127.0.0.2");
        }
    }

    @Test
    void aMemberAdmittedAnywayNeverReachesTheRings() {
        try (LoopbackMembers members = new LoopbackMembers("ketama-allowlist", 3)) {
            HazelcastInstance a = members.start(0, c -> Hazelcast.newHazelcastInstance(withAttributes(c)));
            HazelcastInstance stranger = members.start(1, c -> Hazelcast.newHazelcastInstance(withAttributes(on("127.0.0.2", c))));
            HazelcastInstance b = members.start(2, c -> Hazelcast.newHazelcastInstance(withAttributes(c)));
            ClusterRings rings = new ClusterRings(a, new ClusterRings.Settings(new RingSettings(HashStyle.PINGORA, 16),
                    Duration.ofMillis(50), MigrationSettings.DEFAULT, MigrationSource.CLUSTER, true,
                    MemberAllowlist.of(List.of("127.0.0.1")), java.util.OptionalInt.of(1), ClusterRings.FORGET_FAILED_AFTER, null),
                    RingMetrics.NONE, () -> null);
            try {
                rings.start();
                rings.open();
                await(() -> a.getCluster().getMembers().size() == 3, "three members in the cluster");
                await(() -> rings.snapshot().members().size() == 2 && rings.snapshot().excluded().size() == 1,
                        "two members on the rings, one excluded");
                assertThat(rings.snapshot().contains(stranger.getCluster().getLocalMember())).isFalse();
                assertThat(rings.snapshot().contains(b.getCluster().getLocalMember())).isTrue();
                ExcludedMember excluded = rings.snapshot().excluded().get(0);
                assertThat(excluded.member().getUuid()).isEqualTo(stranger.getCluster().getLocalMember().getUuid());
                assertThat(excluded.reason()).contains("address 127.0.0.2 is not in quarkus.ketama.hazelcast.member-allowlist");
            } finally {
                rings.close();
            }
        }
    }

    private static Config withAttributes(Config config) {
        MemberAttributes.publish(config, 1, Set.of(), "default", null);
        return config;
    }

    /** {@code config} bound to {@code ip} instead of 127.0.0.1, joining the same member list. */
    private static Config on(String ip, Config config) {
        // an address of lo's 127.0.0.0/8 that no interface lists: Hazelcast's interface matching cannot pick it
        config.getNetworkConfig().getInterfaces().clear().setEnabled(false);
        config.setProperty("hazelcast.local.localAddress", ip);
        config.setProperty("hazelcast.socket.bind.any", "false");
        JoinConfig join = config.getNetworkConfig().getJoin();
        List<String> list = List.copyOf(join.getTcpIpConfig().getMembers());
        join.getTcpIpConfig().clear();
        for (String m : list) {
            join.getTcpIpConfig().addMember(m.replace("127.0.0.1:" + config.getNetworkConfig().getPort(),
                    ip + ":" + config.getNetworkConfig().getPort()));
        }
        return config;
    }
}
