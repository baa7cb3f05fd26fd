package io.ketama.quarkus.deployment;

import static io.ketama.quarkus.deployment.TestCluster.awaitSnapshot;
import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import io.ketama.core.HashStyle;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.MemberInfo;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.Selection;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code quarkus.ketama.hash-style=spymemcached}: a three-member cluster whose node ids are the
 * servers its spymemcached clients list sends every key (and its failover candidates) where a
 * spymemcached-style ring over those servers does.
 */
class MemcachedHashStyleTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-memcached", 3);

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app("quarkus.ketama.hash-style", "spymemcached",
            "quarkus.ketama.member.node-id", "10.0.0.1:11211");

    @Inject
    RingSelector selector;

    @AfterAll
    static void stopMembers() {
        CLUSTER.close();
    }

    @Test
    void keysAndCandidatesGoWhereTheClientsRingSendsThem() {
        CLUSTER.start(1, 1, Set.of(), "10.0.0.2:11211");
        CLUSTER.start(2, 2, Set.of(), "10.0.0.3:11211");
        RingSnapshot snapshot = awaitSnapshot(selector, s -> s.members().size() == 3, "three members on the rings");
        assertThat(snapshot.ring(RingVersion.V1).style()).isEqualTo(HashStyle.SPYMEMCACHED);

        // the ring a spymemcached client builds over the same servers and weights
        List<Node<String>> servers = new ArrayList<>();
        Map<UUID, String> serverOf = new HashMap<>();
        for (MemberInfo m : snapshot.members()) {
            servers.add(Node.of(HashStyle.SPYMEMCACHED.identity(m.nodeId()), m.weight(), m.nodeId()));
            serverOf.put(m.member().getUuid(), m.nodeId());
        }
        KetamaRing<String> client = KetamaRing.build(HashStyle.SPYMEMCACHED, servers);
        assertThat(client.generatedPointCount()).isEqualTo(4 * (30 + 30 + 60)); // weight map 1:1:2, float shares

        SplittableRandom random = new SplittableRandom(11);
        int movedOffFirst = 0;
        for (int i = 0; i < 20_000; i++) {
            String key = "/object/" + random.nextLong();
            Selection s = selector.select(key);
            assertThat(s.version()).isEqualTo(RingVersion.V1);
            assertThat(serverOf.get(s.owner().getUuid())).as(key).isEqualTo(client.locate(key).payload());
            List<String> expected = new ArrayList<>();
            client.failover(key).forEachRemaining(n -> expected.add(n.payload()));
            List<String> candidates = s.candidates().stream().map(Member::getUuid).map(serverOf::get).toList();
            assertThat(candidates).as(key).isEqualTo(expected);
            byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
            assertThat(selector.select(bytes).owner()).isEqualTo(s.owner());
            movedOffFirst += candidates.size() > 1 ? 1 : 0;
        }
        assertThat(movedOffFirst).as("keys with a failover candidate besides the owner").isPositive();
    }
}
