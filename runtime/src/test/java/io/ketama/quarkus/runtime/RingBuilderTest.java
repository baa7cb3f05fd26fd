package io.ketama.quarkus.runtime;

import com.hazelcast.cluster.Member;
import io.ketama.core.HashIdentity;
import io.ketama.core.HashStyle;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.MemberInfo;
import io.ketama.quarkus.RingSnapshot;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static io.ketama.quarkus.MemberAttributes.DATACENTER;
import static io.ketama.quarkus.MemberAttributes.FEATURES;
import static io.ketama.quarkus.MemberAttributes.NODE_ID;
import static io.ketama.quarkus.MemberAttributes.WEIGHT;
import static io.ketama.quarkus.runtime.Members.member;
import static org.assertj.core.api.Assertions.assertThat;

class RingBuilderTest {

    private static final RingBuilder PINGORA = new RingBuilder(new RingSettings(HashStyle.PINGORA, 16));
    private static final RingBuilder NGINX = new RingBuilder(new RingSettings(HashStyle.NGINX, 16));

    /** Twelve members: weights 1..4, features, node ids, IPv4 and IPv6. */
    private static List<Member> cluster() {
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            members.add(member("10.0.0." + (i + 1), 5701, WEIGHT, Integer.toString(1 + i % 4),
                    FEATURES, i % 2 == 0 ? "ssd" : "ssd,pci", DATACENTER, "ams"));
        }
        members.add(member("10.0.1.1", 5701, NODE_ID, "ketama-router-0"));
        members.add(member("10.0.1.2", 5701, NODE_ID, "ketama-router-1", WEIGHT, "3"));
        members.add(member("::1", 5701));
        members.add(member("fe80::2", 5702, FEATURES, "pci"));
        return members;
    }

    @Test
    void everyOrderOfTheSameMembersBuildsIdenticalRings() {
        List<Member> members = cluster();
        for (RingBuilder builder : List.of(PINGORA, NGINX)) {
            RingSnapshot reference = builder.build(members, null, 1, "reference");
            assertThat(reference.members()).hasSize(12);
            assertThat(reference.excluded()).isEmpty();
            Random random = new Random(42);
            for (int round = 0; round < 50; round++) {
                List<Member> shuffled = new ArrayList<>(members);
                Collections.shuffle(shuffled, random);
                RingSnapshot other = builder.build(shuffled, null, 1, "shuffled");
                assertThat(other.members()).isEqualTo(reference.members());
                for (RingVersion v : RingVersion.values()) {
                    assertSameRing(other.ring(v), reference.ring(v));
                }
            }
        }
    }

    private static void assertSameRing(KetamaRing<Member> actual, KetamaRing<Member> expected) {
        assertThat(actual.points().hashes()).isEqualTo(expected.points().hashes());
        for (int p = 0; p < expected.pointCount(); p++) {
            assertThat(actual.points().node(actual.points().nodeIndexAt(p)).payload().getUuid())
                    .isEqualTo(expected.points().node(expected.points().nodeIndexAt(p)).payload().getUuid());
        }
    }

    @Test
    void membersAreSortedByIdentityAndDescribed() {
        RingSnapshot s = PINGORA.build(cluster(), null, 7, "test");
        assertThat(s.generation()).isEqualTo(7);
        assertThat(s.reason()).isEqualTo("test");
        List<String> identities = s.members().stream().map(MemberInfo::identity).toList();
        // IP literals first (IPv4 before IPv6), then node ids by their bytes
        assertThat(identities).startsWith("10.0.0.1:5701", "10.0.0.2:5701").endsWith("ketama-router-0", "ketama-router-1");
        assertThat(identities).contains("[::1]:5701", "[fe80::2]:5702");
        MemberInfo router1 = s.members().get(identities.indexOf("ketama-router-1"));
        assertThat(router1.nodeId()).isEqualTo("ketama-router-1");
        assertThat(router1.address()).isEqualTo("10.0.1.2:5701");
        assertThat(router1.weight()).isEqualTo(3);
        assertThat(router1.datacenter()).isEqualTo("default");
        MemberInfo first = s.members().get(0);
        assertThat(first.features()).containsExactlyInAnyOrder("ssd");
        assertThat(first.datacenter()).isEqualTo("ams");
        assertThat(s.knownFeatures()).containsExactlyInAnyOrder("ssd", "pci");
        int totalWeight = s.members().stream().mapToInt(MemberInfo::weight).sum();
        assertThat(s.rings().get(RingVersion.V1).points()).isLessThanOrEqualTo(totalWeight * 160).isGreaterThan(totalWeight * 159);
        assertThat(s.rings().get(RingVersion.V2).pointsPerWeight()).isEqualTo(16);
        assertThat(s.rings().get(RingVersion.V2).coefficientOfVariation()).isGreaterThan(0).isLessThan(1);
        assertThat(s.rings().get(RingVersion.V1).bytes()).isEqualTo(s.ring(RingVersion.V1).retainedBytes());
        for (int i = 0; i < s.members().size(); i++) {
            assertThat(s.ring(RingVersion.V1).points().node(i).payload()).isSameAs(s.members().get(i).member());
            assertThat(s.ring(RingVersion.V2).points().node(i).payload()).isSameAs(s.members().get(i).member());
        }
    }

    @Test
    void nginxStyleV1IsExactlyNginxRingOverTheServerTexts() {
        List<Member> members = List.of(member("127.0.0.1", 5703), member("127.0.0.1", 5701), member("::1", 5702));
        RingSnapshot s = NGINX.build(members, null, 1, "test");
        List<Node<String>> nginx = new ArrayList<>();
        for (String server : List.of("127.0.0.1:5701", "127.0.0.1:5703", "[::1]:5702")) { // identity order
            nginx.add(Node.of(HashIdentity.nginx(server), 1, server));
        }
        KetamaRing<String> expected = KetamaRing.build(RingVersion.V1, nginx);
        assertThat(s.ring(RingVersion.V1).points().hashes()).isEqualTo(expected.points().hashes());
        for (int key = 0; key < 10_000; key++) {
            byte[] k = ("/object/" + key).getBytes();
            assertThat(s.members().get(s.ring(RingVersion.V1).points().nodeIndexForHash(io.ketama.core.Crc32.hash(k))).address())
                    .isEqualTo(expected.locate(k).payload());
        }
    }

    @Test
    void pingoraAndNginxStylesHashIpv6Differently() {
        List<Member> members = List.of(member("::1", 5701), member("::2", 5701));
        int[] pingora = PINGORA.build(members, null, 1, "p").ring(RingVersion.V1).points().hashes();
        int[] nginx = NGINX.build(members, null, 1, "n").ring(RingVersion.V1).points().hashes();
        assertThat(pingora).isNotEqualTo(nginx); // "::1" 0x00 "5701" versus "[::1]" 0x00 "5701"
    }

    @Test
    void aNodeIdReplacesTheAddressAsIdentity() {
        RingSnapshot before = PINGORA.build(List.of(member("10.0.0.1", 5701, NODE_ID, "pod-0"), member("10.0.0.2", 5701)), null, 1, "a");
        RingSnapshot after = PINGORA.build(List.of(member("10.9.9.9", 5701, NODE_ID, "pod-0"), member("10.0.0.2", 5701)), null, 2, "b");
        for (RingVersion v : RingVersion.values()) {
            assertThat(after.ring(v).points().hashes()).isEqualTo(before.ring(v).points().hashes());
        }
    }

    @Test
    void malformedAttributesExcludeTheMemberWithTheReason() {
        List<Member> members = List.of(
                member("10.0.0.1", 5701),
                member("10.0.0.2", 5701, WEIGHT, "abc"),
                member("10.0.0.3", 5701, WEIGHT, "0"),
                member("10.0.0.4", 5701, WEIGHT, "-1"),
                member("10.0.0.5", 5701, WEIGHT, "1001"),
                member("10.0.0.6", 5701, FEATURES, "ssd,,pci"),
                member("10.0.0.7", 5701, FEATURES, " "), // blank text: no features, fine
                member("10.0.0.8", 5701, FEATURES, ""), // empty text: no features, fine
                member("10.0.0.9", 5701, DATACENTER, " "));
        RingSnapshot s = PINGORA.build(members, members.get(0), 1, "test");
        assertThat(s.members()).extracting(MemberInfo::address).containsExactly("10.0.0.1:5701", "10.0.0.7:5701", "10.0.0.8:5701");
        assertThat(s.containsLocalMember()).isTrue();
        assertThat(s.excluded()).extracting(e -> e.member().getAddress().getHost())
                .containsExactly("10.0.0.2", "10.0.0.3", "10.0.0.4", "10.0.0.5", "10.0.0.6", "10.0.0.9");
        assertThat(s.excluded().get(0).reason()).isEqualTo("ketama.weight must be an integer from 1 to 1000, was 'abc'");
        assertThat(s.excluded().get(1).reason()).contains("ketama.weight", "'0'");
        assertThat(s.excluded().get(2).reason()).contains("ketama.weight", "'-1'");
        assertThat(s.excluded().get(4).reason()).contains("ketama.features has an empty feature in 'ssd,,pci'");
        assertThat(s.excluded().get(5).reason()).contains("ketama.datacenter must be a non-blank data centre name");
    }

    @Test
    void aDuplicateNodeIdIsKeptByTheMemberThatJoinedFirst() {
        Member older = member("10.0.0.1", 5701, NODE_ID, "pod-0");
        Member newer = member("10.0.0.2", 5701, NODE_ID, "pod-0");
        RingSnapshot s = PINGORA.build(List.of(older, newer), newer, 1, "test");
        assertThat(s.members()).extracting(MemberInfo::member).containsExactly(older);
        assertThat(s.excluded()).singleElement().satisfies(e -> {
            assertThat(e.member()).isEqualTo(newer);
            assertThat(e.reason()).contains("ring identity 'pod-0' is already used by member 10.0.0.1:5701");
        });
        assertThat(s.containsLocalMember()).isFalse();
        assertThat(s.contains(older)).isTrue();
    }

    @Test
    void anEmptyMemberSetBuildsEmptyRings() {
        RingSnapshot s = PINGORA.build(List.of(), null, 0, "none");
        assertThat(s.ring(RingVersion.V1).isEmpty()).isTrue();
        assertThat(s.ring(RingVersion.V2).points().nodeIndexForHash(123)).isEqualTo(-1);
        assertThat(s.rings().get(RingVersion.V2).points()).isZero();
        assertThat(s.knownFeatures()).isEqualTo(Set.of());
    }
}
