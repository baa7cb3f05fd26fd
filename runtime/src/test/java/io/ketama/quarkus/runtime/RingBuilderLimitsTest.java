package io.ketama.quarkus.runtime;

import com.hazelcast.cluster.Member;
import io.ketama.core.HashIdentity;
import io.ketama.core.HashStyle;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.RingSnapshot;
import org.junit.jupiter.api.Test;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;

import static io.ketama.quarkus.MemberAttributes.WEIGHT;
import static io.ketama.quarkus.runtime.Members.member;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 29, point 5: past a ring's limits a rebuild fails naming the limit, never with wrapped node numbers. */
class RingBuilderLimitsTest {

    @Test
    void v2PointsPastTheLimitNameTheSettingAndTheLargestValueThatFits() {
        RingBuilder builder = new RingBuilder(new RingSettings(HashStyle.PINGORA, 1_000_000));
        List<Member> members = List.of(member("10.0.0.1", 5701, WEIGHT, "1000"), member("10.0.0.2", 5701, WEIGHT, "1000"),
                member("10.0.0.3", 5701, WEIGHT, "1000"));
        assertThatThrownBy(() -> builder.build(members, null, 1, "test"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the v2 ring cannot be built: 3 members of total weight 3000 at 1000000 points per weight make 3000000000 points,"
                        + " and a ring holds at most 2147483583; set quarkus.ketama.v2.points-per-weight to at most 715827 or lower the weights");
        // and that value passes the check (building 2.1 G points is left out of a unit test)
        List<Node<Member>> nodes = List.of(Node.of(HashIdentity.of("a", "1"), 1000, null), Node.of(HashIdentity.of("b", "1"), 1000, null),
                Node.of(HashIdentity.of("c", "1"), 1000, null));
        new RingBuilder(new RingSettings(HashStyle.PINGORA, 715_827)).requireWithinLimits(nodes);
        assertThatThrownBy(() -> new RingBuilder(new RingSettings(HashStyle.PINGORA, 715_828)).requireWithinLimits(nodes))
                .hasMessageContaining("make 2147484000 points");
    }

    @Test
    void v1PointsPastTheLimitNameTheTotalWeightThatFits() {
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < 13_422; i++) {
            members.add(member("10." + (i >>> 16) + "." + ((i >>> 8) & 255) + "." + (i & 255), 5701, WEIGHT, "1000"));
        }
        RingBuilder builder = new RingBuilder(new RingSettings(HashStyle.PINGORA, 16));
        assertThatThrownBy(() -> builder.build(members, null, 1, "test"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the v1 ring cannot be built: 13422 members of total weight 13422000 at nginx's 160 points per weight make"
                        + " 2147520000 points, and a ring holds at most 2147483583; lower the weights (total weight at most 13421772)");
    }

    @Test
    void membersPastTheNodeLimitAreRefusedBeforeAnythingIsRead() {
        RingBuilder builder = new RingBuilder(new RingSettings(HashStyle.PINGORA, 16));
        Node<Member> one = Node.of(HashIdentity.of("10.0.0.1", "5701"), 1, null);
        List<Node<Member>> tooMany = new AbstractList<>() {
            @Override
            public Node<Member> get(int index) {
                return one;
            }

            @Override
            public int size() {
                return KetamaRing.MAX_NODES + 1;
            }
        };
        assertThatThrownBy(() -> builder.requireWithinLimits(tooMany))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the rings cannot be built: 16777217 members are to be placed, and a ring holds at most 16777216"
                        + " (node numbers are 24 bits)");
    }

    @Test
    void bothRingsShareOneNodeTable() {
        List<Member> members = List.of(member("10.0.0.1", 5701), member("10.0.0.2", 5701, WEIGHT, "3"));
        RingSnapshot s = new RingBuilder(new RingSettings(HashStyle.NGINX, 16)).build(members, null, 1, "test");
        for (int i = 0; i < 2; i++) {
            assertThat(s.ring(RingVersion.V2).nodes().get(i)).isSameAs(s.ring(RingVersion.V1).nodes().get(i));
            assertThat(s.ring(RingVersion.V2).nodes().get(i).payload()).isSameAs(s.members().get(i).member());
        }
    }
}
