package io.ketama.quarkus.deployment;

import static io.ketama.quarkus.deployment.TestCluster.awaitSnapshot;
import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstance;
import io.ketama.core.HashStyle;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSettings.Mode;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.Selection;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A cluster takes over a twemproxy pool ({@code quarkus.ketama.hash-style=twemproxy-fnv1a-64}):
 * six members whose node ids are the pool's server names send each of the 6,000 keys recorded from
 * a real nutcracker 0.5.0 where nutcracker sent it, and again after two members leave as nutcracker
 * did after ejecting those servers; a v1 → v2 split then moves only the share it names.
 */
class TwemproxyTakeoverTest {

    static final RecordedPool POOL = RecordedPool.twemproxy("twemproxy-fnv1a_64", "named");
    static final TestCluster CLUSTER = new TestCluster("ketama-twemproxy", POOL.servers().size());

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app(jar -> jar.addClass(RecordedPool.class),
            "quarkus.ketama.hash-style", "twemproxy-fnv1a-64",
            "quarkus.ketama.member.node-id", POOL.nodeId(0),
            "quarkus.ketama.member.weight", Integer.toString(POOL.weight(0)));

    @Inject
    RingSelector selector;

    @AfterAll
    static void stopMembers() {
        CLUSTER.close();
    }

    @Test
    void everyRecordedKeyGoesWhereNutcrackerSentItBeforeAndAfterEjections() {
        List<String> keys = RecordedPool.keys();
        Map<Integer, HazelcastInstance> plain = new HashMap<>();
        for (int i = 1; i < POOL.servers().size(); i++) {
            plain.put(i, CLUSTER.start(i, POOL.weight(i), Set.of(), POOL.nodeId(i)));
        }
        RingSnapshot all = awaitSnapshot(selector, s -> s.members().size() == POOL.servers().size(), "the pool's six servers on the rings");
        assertThat(all.ring(RingVersion.V1).style()).isEqualTo(HashStyle.TWEMPROXY_FNV1A_64);
        assertThat(owners(keys, all)).as("owners with every server up").containsExactly(POOL.owners());

        // a key's second candidate is where nutcracker sends it once its owner is ejected
        int[] withoutZz = POOL.ejected().get("3");
        Map<UUID, Integer> server = servers(all);
        int owned = 0;
        for (int k = 0; k < keys.size(); k++) {
            if (POOL.owners()[k] == 3) {
                owned++;
                assertThat(server.get(selector.select(keys.get(k)).candidates().get(1).getUuid())).as(keys.get(k)).isEqualTo(withoutZz[k]);
            }
        }
        assertThat(owned).as("keys of the server ejected first").isPositive();

        migrationStepMovesOnlyItsShare(keys);

        CLUSTER.stop(plain.get(3));
        RingSnapshot five = awaitSnapshot(selector, s -> s.members().size() == 5, "zz gone");
        assertThat(owners(keys, five)).as("owners after zz left").containsExactly(withoutZz);
        CLUSTER.stop(plain.get(1));
        RingSnapshot four = awaitSnapshot(selector, s -> s.members().size() == 4, "alpha gone");
        assertThat(owners(keys, four)).as("owners after zz and alpha left").containsExactly(POOL.ejected().get("3 1"));
    }

    /** A split at 25 %: keys the split leaves on v1 keep nutcracker's owner, the others go to v2's owner; back to v1 after. */
    private void migrationStepMovesOnlyItsShare(List<String> keys) {
        selector.updateMigration(new MigrationSettings(Mode.SPLIT, 25, false));
        TestCluster.await(() -> selector.migration().settings().mode(), Mode.SPLIT::equals, TestCluster.DEADLINE, "the split applied");
        RingSnapshot s = selector.snapshot();
        Map<UUID, Integer> server = servers(s);
        int onV2 = 0;
        for (int k = 0; k < keys.size(); k++) {
            Selection selection = selector.select(keys.get(k));
            if (selection.version() == RingVersion.V1) {
                assertThat(server.get(selection.owner().getUuid())).as(keys.get(k)).isEqualTo(POOL.owners()[k]);
            } else {
                onV2++;
                assertThat(selection.owner()).isEqualTo(s.ring(RingVersion.V2).locate(keys.get(k)).payload());
            }
        }
        // 25 % of 6,000 keys, by CRC-32: 1,500 with a standard deviation of about 34
        assertThat(onV2).as("keys the 25 %% split moved to v2").isBetween(1_350, 1_650);
        selector.updateMigration(new MigrationSettings(Mode.V1, 0, false));
        TestCluster.await(() -> selector.migration().settings().mode(), Mode.V1::equals, TestCluster.DEADLINE, "back on v1");
    }

    private int[] owners(List<String> keys, RingSnapshot snapshot) {
        Map<UUID, Integer> server = servers(snapshot);
        int[] owners = new int[keys.size()];
        for (int k = 0; k < keys.size(); k++) {
            owners[k] = server.get(selector.select(keys.get(k)).owner().getUuid());
        }
        return owners;
    }

    private static Map<UUID, Integer> servers(RingSnapshot snapshot) {
        return POOL.serverOf(snapshot);
    }
}
