package io.ketama.quarkus.deployment;

import static io.ketama.quarkus.deployment.TestCluster.awaitSnapshot;
import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.cluster.Member;
import io.ketama.quarkus.BoundedSelection;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.Selection;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link RingSelector#selectBounded} on four real members (one of weight 2, two with the feature
 * {@code ssd}) with {@code quarkus.ketama.bounded-load.enabled=true} and factor 1.5: the owner while
 * it has room, the next member of the key's failover order past a full owner, the same within the
 * members that have a required feature, weights counted.
 */
class BoundedSelectTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-bounded", 4);

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app(
            "quarkus.ketama.bounded-load.enabled", "true",
            "quarkus.ketama.bounded-load.factor", "1.5",
            "quarkus.ketama.member.features", "ssd");

    @Inject
    RingSelector selector;

    @AfterAll
    static void stopMembers() {
        CLUSTER.close();
    }

    @Test
    void aFullOwnerSpillsToTheNextMemberOfTheKeysOwnFailoverOrder() {
        CLUSTER.start(1, 1, Set.of(), null);
        CLUSTER.start(2, 2, Set.of("ssd"), null);
        CLUSTER.start(3, 1, Set.of(), null);
        awaitSnapshot(selector, s -> s.members().size() == 4, "four members on the rings");
        assertThat(selector.boundedLoad().enabled()).isTrue();
        assertThat(selector.boundedLoad().factor()).isEqualTo(1.5);

        int spilledChecked = 0;
        for (int k = 0; k < 200; k++) {
            String key = "/img/" + k + ".png";
            Selection plain = selector.select(key);
            List<Member> order = plain.candidates();
            Map<Member, Long> loads = new HashMap<>();
            order.forEach(m -> loads.put(m, 100L));
            // total 500 (weights 1+1+2+1 = 5): a member of weight 1 may carry ⌈1.5 × 501 / 5⌉ = 151
            BoundedSelection room = selector.selectBounded(key, Set.of(), loads::get, 500);
            assertThat(room.chosen()).isEqualTo(plain.owner());
            assertThat(room.spilled()).isFalse();

            long ownerBound = weight(plain.owner()) * 151L - (weight(plain.owner()) == 2 ? 1 : 0); // ⌈1.5 × 501 × 2 / 5⌉ = 301
            loads.put(plain.owner(), ownerBound);
            BoundedSelection full = selector.selectBounded(key, Set.of(), loads::get, 500);
            assertThat(full.chosen()).as("key %s", key).isEqualTo(order.get(1));
            assertThat(full.position()).isEqualTo(1);
            loads.put(plain.owner(), ownerBound - 1);
            assertThat(selector.selectBounded(key, Set.of(), loads::get, 500).chosen()).isEqualTo(plain.owner());
            spilledChecked++;
        }
        assertThat(spilledChecked).isEqualTo(200);
    }

    @Test
    void withAFeatureTheSpillStaysAmongTheMembersThatHaveIt() {
        awaitSnapshot(selector, s -> s.members().size() == 4, "four members on the rings");
        for (int k = 0; k < 100; k++) {
            String key = "/pci/" + k;
            Selection plain = selector.select(key, Set.of("ssd"));
            assertThat(plain.candidates()).hasSize(2);
            Map<Member, Long> loads = Map.of(plain.candidates().get(0), 10_000L, plain.candidates().get(1), 0L);
            BoundedSelection s = selector.selectBounded(key, Set.of("ssd"), m -> loads.getOrDefault(m, 0L), 10_000);
            assertThat(s.chosen()).isEqualTo(plain.candidates().get(1));
            assertThat(s.chosen().getAttribute("ketama.features")).isEqualTo("ssd");
            // both full: the owner, as the plain selection
            BoundedSelection none = selector.selectBounded(key, Set.of("ssd"), m -> 1_000_000L, 10_000);
            assertThat(none.chosen()).isEqualTo(plain.owner());
            assertThat(none.spilled()).isFalse();
        }
    }

    private static int weight(Member m) {
        String w = m.getAttribute("ketama.weight");
        return w == null ? 1 : Integer.parseInt(w);
    }
}
