package io.ketama.quarkus.runtime;

import static io.ketama.quarkus.MemberAttributes.LIST_INDEX;
import static io.ketama.quarkus.MemberAttributes.NODE_ID;
import static io.ketama.quarkus.MemberAttributes.WEIGHT;
import static io.ketama.quarkus.runtime.Members.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
 * The ketama-family styles in the extension (issue 41): the v1 ring is the ring the program builds
 * over the members' node ids in its server list's order ({@code member.list-index}), with
 * twemproxy's hash tag and Dubbo's {@code hash.nodes}, whatever order the members come in.
 */
class FamilyStyleRingsTest {

    /** A server as the clients list it: the node id, its weight and its place in their list. */
    private record Server(String nodeId, int weight, int listIndex) {
    }

    private static List<Member> members(List<Server> servers) {
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            Server s = servers.get(i);
            members.add(member("10.9.0." + (i + 1), 5701, NODE_ID, s.nodeId(), WEIGHT, Integer.toString(s.weight()),
                    LIST_INDEX, Integer.toString(s.listIndex())));
        }
        return members;
    }

    /** The program's ring: the servers in list order. */
    private static KetamaRing<String> programRing(HashStyle style, HashStyle.Options options, List<Server> servers) {
        List<Server> listed = new ArrayList<>(servers);
        listed.sort((a, b) -> Integer.compare(a.listIndex(), b.listIndex()));
        List<Node<String>> nodes = new ArrayList<>();
        for (Server s : listed) {
            nodes.add(Node.of(style.identity(s.nodeId()), s.weight(), s.nodeId()));
        }
        return KetamaRing.build(style, options, nodes);
    }

    private static String ownerNodeId(RingSnapshot snapshot, String key) {
        KetamaRing<Member> v1 = snapshot.ring(RingVersion.V1);
        return snapshot.members().get(v1.points().nodeIndexForHash(v1.hashKey(key))).nodeId();
    }

    @Test
    void everyFamilyStyleIsTheProgramsRingInItsListOrderWhateverOrderTheMembersComeIn() {
        // listed out of identity order on purpose, with unequal weights and a port other than 11211
        List<Server> servers = List.of(new Server("10.0.0.9:11211", 1, 0), new Server("10.0.0.10:11300", 2, 1),
                new Server("10.0.0.1:11211", 1, 2), new Server("10.0.0.5:11211", 3, 3));
        List<HashStyle> family = List.of(HashStyle.TWEMPROXY_FNV1A_64, HashStyle.TWEMPROXY_MD5, HashStyle.LIBMEMCACHED_WEIGHTED,
                HashStyle.LIBMEMCACHED_KETAMA, HashStyle.LIBMEMCACHED_KETAMA_MD5, HashStyle.LIBMEMCACHED_SPYMEMCACHED, HashStyle.DUBBO,
                HashStyle.XMEMCACHED);
        Random random = new Random(41);
        for (HashStyle style : family) {
            RingBuilder builder = new RingBuilder(new RingSettings(style, 16));
            List<Member> members = new ArrayList<>(members(servers));
            Collections.shuffle(members, random);
            RingSnapshot snapshot = builder.build(members, null, 1, "test");
            assertThat(snapshot.excluded()).as(style.label()).isEmpty();
            KetamaRing<Member> v1 = snapshot.ring(RingVersion.V1);
            assertThat(v1.style()).isEqualTo(style);
            KetamaRing<String> program = programRing(style, HashStyle.Options.DEFAULTS, servers);
            assertThat(v1.points().hashes()).as(style.label()).isEqualTo(program.points().hashes());
            for (int k = 0; k < 5_000; k++) {
                String key = "k" + random.nextInt() + (k % 3 == 0 ? "é€😀" : "");
                assertThat(ownerNodeId(snapshot, key)).as(style.label() + " " + key).isEqualTo(program.locate(key).payload());
            }
        }
    }

    @Test
    void aPointTwoDubboProvidersShareGoesToTheOneListedLastAsDubboGivesIt() {
        // "127.0.0.1:2088" + "10" and "127.0.0.1:20881" + "0" are one text: these two share points.
        // Listed 20881 first, the later 2088 keeps them; in identity order 20881 sorts last and would.
        List<Server> servers = List.of(new Server("127.0.0.1:20881", 1, 0), new Server("127.0.0.1:2088", 1, 1),
                new Server("10.0.0.3:20880", 1, 2));
        HashStyle.Options options = HashStyle.Options.DEFAULTS.withHashNodes(50);
        RingBuilder builder = new RingBuilder(new RingSettings(HashStyle.DUBBO, options, 16));
        RingSnapshot snapshot = builder.build(members(servers), null, 1, "dubbo");
        KetamaRing<Member> v1 = snapshot.ring(RingVersion.V1);
        KetamaRing<String> listed = programRing(HashStyle.DUBBO, options, servers);
        assertThat(v1.points().hashes()).isEqualTo(listed.points().hashes());
        assertThat(v1.generatedPointCount()).as("hash.nodes 50 gives 48 points a provider").isEqualTo(3 * 48);

        // the same servers in identity order: the ring a cluster without list indices builds
        List<Server> byIdentity = List.of(new Server("10.0.0.3:20880", 1, 0), new Server("127.0.0.1:2088", 1, 1),
                new Server("127.0.0.1:20881", 1, 2));
        KetamaRing<String> sorted = programRing(HashStyle.DUBBO, options, byIdentity);
        int onSharedPoints = 0;
        Random random = new Random(7);
        for (int k = 0; k < 20_000; k++) {
            String key = "order-" + random.nextLong();
            String expected = listed.locate(key).payload();
            assertThat(ownerNodeId(snapshot, key)).as(key).isEqualTo(expected);
            if (!expected.equals(sorted.locate(key).payload())) {
                onSharedPoints++;
                assertThat(expected).as("a shared point's key goes to the provider listed last").isEqualTo("127.0.0.1:2088");
            }
        }
        assertThat(onSharedPoints).as("keys on the shared points, placed by the list order").isPositive();
    }

    @Test
    void twemproxysHashTagPlacesAKeyByThePartBetweenTheTagsCharacters() {
        List<Server> servers = List.of(new Server("cache-a", 1, 0), new Server("cache-b", 1, 1), new Server("cache-c", 2, 2));
        HashStyle.Options tag = HashStyle.Options.DEFAULTS.withHashTag("{}");
        RingSnapshot snapshot = new RingBuilder(new RingSettings(HashStyle.TWEMPROXY_FNV1A_64, tag, 16))
                .build(members(servers), null, 1, "tag");
        KetamaRing<String> program = programRing(HashStyle.TWEMPROXY_FNV1A_64, tag, servers);
        Random random = new Random(3);
        for (int k = 0; k < 2_000; k++) {
            String user = Integer.toString(random.nextInt(1_000_000));
            String owner = ownerNodeId(snapshot, "user:{" + user + "}:cart");
            assertThat(ownerNodeId(snapshot, "session:{" + user + "}")).isEqualTo(owner);
            assertThat(ownerNodeId(snapshot, user)).as("the tag's part alone").isEqualTo(owner);
            assertThat(owner).isEqualTo(program.locate("x{" + user + "}").payload());
        }
    }

    @Test
    void anOptionTheStyleDoesNotTakeIsRefusedNamingItsKey() {
        HashStyle.Options tag = HashStyle.Options.DEFAULTS.withHashTag("{}");
        assertThatThrownBy(() -> new RingSettings(HashStyle.DUBBO, tag, 16))
                .hasMessageContaining(RingSettings.HASH_TAG_KEY).hasMessageContaining("twemproxy");
        assertThatThrownBy(() -> new RingSettings(HashStyle.TWEMPROXY_MD5, HashStyle.Options.DEFAULTS.withHashNodes(40), 16))
                .hasMessageContaining(RingSettings.HASH_NODES_KEY).hasMessageContaining("dubbo");
        assertThatThrownBy(() -> new RingSettings(HashStyle.PINGORA, tag, 16)).hasMessageContaining(RingSettings.HASH_TAG_KEY);
    }

    @Test
    void aMalformedListIndexLeavesOnlyThatMemberOffTheRings() {
        List<Member> members = new ArrayList<>(members(List.of(new Server("10.0.0.1:11211", 1, 0), new Server("10.0.0.2:11211", 1, 1))));
        members.add(member("10.9.0.9", 5701, NODE_ID, "10.0.0.3:11211", LIST_INDEX, "-1"));
        members.add(member("10.9.0.10", 5701, NODE_ID, "10.0.0.4:11211", LIST_INDEX, "first"));
        RingSnapshot snapshot = new RingBuilder(new RingSettings(HashStyle.LIBMEMCACHED_WEIGHTED, 16)).build(members, null, 1, "bad");
        assertThat(snapshot.members()).extracting(MemberInfo::nodeId).containsExactly("10.0.0.1:11211", "10.0.0.2:11211");
        assertThat(snapshot.excluded()).hasSize(2).allSatisfy(e -> assertThat(e.reason())
                .contains(LIST_INDEX).contains("whole number from 0"));
    }
}
