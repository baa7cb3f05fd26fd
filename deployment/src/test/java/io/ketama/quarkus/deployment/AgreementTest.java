package io.ketama.quarkus.deployment;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.core.Crc32;
import io.ketama.core.FeatureRings;
import io.ketama.core.HashStyle;
import io.ketama.core.KetamaRing;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.runtime.MemberPart;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.runtime.RingSettings;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.Selection;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static io.ketama.quarkus.deployment.TestCluster.await;
import static io.ketama.quarkus.deployment.TestCluster.awaitSnapshot;
import static io.ketama.quarkus.deployment.TestCluster.hasExactly;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every member, the application's and plain Hazelcast members alike, computes the same owner for
 * every key from its own view of the cluster, also after members join and leave in different
 * orders. The plain members compute with the extension's ring builder ({@link MemberPart#build}), exactly what {@link RingSelector}
 * runs on each membership change.
 */
class AgreementTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-agreement", 6);
    static final int KEYS = 10_000;

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app(
            "quarkus.ketama.migration.mode", "split",
            "quarkus.ketama.migration.v2-share", "50",
            "quarkus.ketama.member.features", "ssd");

    @Inject
    RingSelector selector;
    @Inject
    HazelcastInstance hazelcast;

    @AfterAll
    static void stopMembers() {
        CLUSTER.close();
    }

    @Test
    void everyMemberSelectsTheSameOwnerAfterJoinsAndLeavesInAnyOrder() {
        HazelcastInstance b = CLUSTER.start(1, 2, Set.of(), null);
        HazelcastInstance c = CLUSTER.start(2, 1, Set.of("ssd"), "node-c");
        HazelcastInstance d = CLUSTER.start(3, 3, Set.of("ssd", "pci"), null);
        assertAgreement(List.of(b, c, d));

        CLUSTER.stop(c);
        HazelcastInstance e = CLUSTER.start(4, 1, Set.of("pci"), null);
        CLUSTER.stop(b);
        HazelcastInstance f = CLUSTER.start(5, 2, Set.of("ssd"), "node-f");
        HazelcastInstance c2 = CLUSTER.start(2, 1, Set.of("ssd"), "node-c"); // c back, new address-independent identity
        assertAgreement(List.of(d, e, f, c2));

        CLUSTER.stop(d);
        CLUSTER.stop(f);
        HazelcastInstance b2 = CLUSTER.start(1, 4, Set.of(), null);
        assertAgreement(List.of(e, c2, b2));
    }

    /** Waits until every member sees the same cluster, then compares everyone's rings and owners. */
    private void assertAgreement(List<HazelcastInstance> plain) {
        List<HazelcastInstance> all = new ArrayList<>(plain);
        all.add(hazelcast);
        Set<UUID> expected = all.stream().map(h -> h.getCluster().getLocalMember().getUuid()).collect(Collectors.toSet());
        for (HazelcastInstance h : all) {
            await(() -> uuids(h.getCluster().getMembers()), expected::equals, TestCluster.DEADLINE,
                    "member " + h.getCluster().getLocalMember() + " sees the whole cluster");
        }
        RingSnapshot mine = awaitSnapshot(selector, s -> hasExactly(s, hazelcast.getCluster().getMembers()),
                "the application's rings hold every member");
        assertThat(mine.containsLocalMember()).isTrue();
        assertThat(mine.excluded()).isEmpty();

        RingSettings settings = new RingSettings(HashStyle.PINGORA, 16);
        List<RingSnapshot> theirs = new ArrayList<>();
        for (HazelcastInstance h : plain) {
            List<Member> view = new ArrayList<>(h.getCluster().getMembers());
            RingSnapshot asGiven = MemberPart.build(settings, view, h.getCluster().getLocalMember());
            Collections.reverse(view);
            RingSnapshot reversed = MemberPart.build(settings, view, h.getCluster().getLocalMember());
            for (RingVersion v : RingVersion.values()) {
                assertSameRing(asGiven.ring(v), mine.ring(v));
                assertSameRing(reversed.ring(v), mine.ring(v));
            }
            theirs.add(asGiven);
        }

        Map<RingVersion, Integer> served = new EnumMap<>(RingVersion.class);
        for (int k = 0; k < KEYS; k++) {
            String key = "https://cdn.example.com/objects/" + k;
            Selection s = selector.select(key);
            served.merge(s.version(), 1, Integer::sum);
            Selection ssd = selector.select(key, Set.of("ssd"));
            for (RingSnapshot peer : theirs) {
                KetamaRing<Member> ring = peer.ring(s.version());
                assertThat(ring.locate(key).payload().getUuid()).isEqualTo(s.owner().getUuid());
                assertThat(uuidList(s.candidates())).isEqualTo(uuidList(failover(ring, key, Set.of())));
                assertThat(uuidList(ssd.candidates())).isEqualTo(uuidList(failover(peer.ring(ssd.version()), key, Set.of("ssd"))));
            }
            assertThat(s.candidates().get(0)).isEqualTo(s.owner());
            assertThat(s.candidates()).hasSize(all.size());
            assertThat(ssd.owner().getAttribute("ketama.features")).contains("ssd");
        }
        assertThat(served.get(RingVersion.V1)).isBetween(KEYS * 4 / 10, KEYS * 6 / 10);
        assertThat(served.get(RingVersion.V2)).isBetween(KEYS * 4 / 10, KEYS * 6 / 10);
    }

    /** A peer's failover order for {@code key} among the members with every {@code required} feature. */
    private static List<Member> failover(KetamaRing<Member> ring, String key, Set<String> required) {
        List<Member> out = new ArrayList<>();
        FeatureRings.of(ring).failoverForHash(Crc32.hashUtf8(key), required).forEachRemaining(n -> out.add(n.payload()));
        return out;
    }

    private static void assertSameRing(KetamaRing<Member> actual, KetamaRing<Member> expected) {
        assertThat(actual.points().hashes()).isEqualTo(expected.points().hashes());
        for (int p = 0; p < expected.pointCount(); p++) {
            assertThat(actual.points().node(actual.points().nodeIndexAt(p)).payload().getUuid())
                    .isEqualTo(expected.points().node(expected.points().nodeIndexAt(p)).payload().getUuid());
        }
    }

    private static Set<UUID> uuids(Set<Member> members) {
        return members.stream().map(Member::getUuid).collect(Collectors.toSet());
    }

    private static List<UUID> uuidList(List<Member> members) {
        return members.stream().map(Member::getUuid).toList();
    }
}
