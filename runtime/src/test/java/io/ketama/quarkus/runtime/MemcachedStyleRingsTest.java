package io.ketama.quarkus.runtime;

import static io.ketama.quarkus.runtime.Members.member;
import static io.ketama.quarkus.MemberAttributes.NODE_ID;
import static io.ketama.quarkus.MemberAttributes.WEIGHT;
import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import io.ketama.core.HashStyle;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.MemberInfo;
import io.ketama.quarkus.RingSnapshot;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@code quarkus.ketama.hash-style=spymemcached|hashring}: the v1 ring is the ring those clients
 * build over the members' node ids (their server texts), whatever order the members come in; v2
 * stays the compact ring.
 */
class MemcachedStyleRingsTest {

    private static List<Member> cluster() {
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            members.add(member("10.0.0." + (i + 1), 5701, NODE_ID, "10.1.0." + (i + 1) + ":11211", WEIGHT, Integer.toString(1 + i % 3)));
        }
        return members;
    }

    @Test
    void theV1RingIsTheClientsRingOverTheNodeIdsInAnyMemberOrder() {
        for (HashStyle style : List.of(HashStyle.SPYMEMCACHED, HashStyle.HASHRING)) {
            RingBuilder builder = new RingBuilder(new RingSettings(style, 16));
            RingSnapshot snapshot = builder.build(cluster(), null, 1, "test");
            KetamaRing<Member> v1 = snapshot.ring(RingVersion.V1);
            assertThat(v1.style()).isEqualTo(style);
            assertThat(snapshot.ring(RingVersion.V2).version()).isEqualTo(RingVersion.V2);
            // what a client configured with the same servers (in the members' identity order) builds
            List<Node<String>> servers = new ArrayList<>();
            for (MemberInfo m : snapshot.members()) {
                servers.add(Node.of(style.identity(m.nodeId()), m.weight(), m.nodeId()));
            }
            KetamaRing<String> client = KetamaRing.build(style, servers);
            assertThat(v1.points().hashes()).isEqualTo(client.points().hashes());
            Random random = new Random(1);
            for (int k = 0; k < 20_000; k++) {
                String key = "key-" + random.nextInt();
                String expected = client.locate(key).payload();
                assertThat(snapshot.members().get(v1.points().nodeIndexForHash(v1.hashKey(key))).nodeId()).isEqualTo(expected);
            }
            List<Member> shuffled = new ArrayList<>(cluster());
            Collections.shuffle(shuffled, random);
            assertThat(builder.build(shuffled, null, 1, "shuffled").ring(RingVersion.V1).points().hashes()).isEqualTo(v1.points().hashes());
        }
    }
}
