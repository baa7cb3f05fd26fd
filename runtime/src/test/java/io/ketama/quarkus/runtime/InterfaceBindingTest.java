package io.ketama.quarkus.runtime;

import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.core.HashStyle;
import io.ketama.testing.FreePorts;
import io.ketama.testing.LoopbackHazelcast;
import io.ketama.testing.StartedMembers;
import io.ketama.quarkus.MigrationSettings;
import io.quarkus.runtime.LaunchMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code quarkus.ketama.hazelcast.interface} binds the member to that address: a member of a
 * running application given {@code 127.0.0.1} listens there only, not on every interface of the
 * host (Hazelcast's {@code hazelcast.socket.bind.any} defaults to true and would publish 127.0.0.1
 * while listening on {@code *}). Checked on a real member: 127.0.0.2, another loopback address,
 * reaches a member that listens on every interface but not one bound to 127.0.0.1.
 */
class InterfaceBindingTest {

    private static final String BIND_ANY = "hazelcast.socket.bind.any";

    @AfterEach
    void clearProperty() {
        System.clearProperty(BIND_ANY);
    }

    @Test
    void aMemberGivenAnInterfaceListensOnThatAddressOnly() throws IOException {
        int port = freeLoopbackPort();
        Config config = HazelcastConfigs.of(settings(port), LaunchMode.NORMAL);
        try (StartedMembers members = new StartedMembers()) {
            HazelcastInstance member = members.start(config);
            assertThat(member.getCluster().getLocalMember().getAddress().getHost()).isEqualTo("127.0.0.1");
            try (Socket published = new Socket()) {
                published.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            }
            assertThatThrownBy(() -> {
                try (Socket elsewhere = new Socket()) {
                    elsewhere.connect(new InetSocketAddress("127.0.0.2", port), 10_000);
                }
            }).as("the member must not listen on 127.0.0.2:%d (nor any other address than 127.0.0.1)", port)
                    .isInstanceOf(ConnectException.class);
        }
    }

    @Test
    void aChoiceMadeOutsideTheKeysStands() {
        System.setProperty(BIND_ANY, "true");
        Config config = HazelcastConfigs.of(settings(5701), LaunchMode.NORMAL);
        assertThat(config.getProperties().getProperty(BIND_ANY)).as("not set in the configuration: Hazelcast reads the system property").isNull();
    }

    private static KetamaSettings settings(int port) {
        KetamaSettings.HazelcastSettings hazelcast = new KetamaSettings.HazelcastSettings(
                LoopbackHazelcast.clusterName("ketama-interface"), port, false, List.of("127.0.0.1:" + port),
                "127.0.0.1", null, null, null, null, null);
        return new KetamaSettings("default", new RingSettings(HashStyle.PINGORA, 16), 1, List.of(), null, null,
                MigrationSettings.DEFAULT, null, Duration.ofMillis(200), hazelcast);
    }

    private static int freeLoopbackPort() {
        return FreePorts.take();
    }
}
