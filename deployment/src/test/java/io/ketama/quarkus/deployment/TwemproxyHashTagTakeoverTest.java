package io.ketama.quarkus.deployment;

import static io.ketama.quarkus.deployment.TestCluster.awaitSnapshot;
import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.core.HashStyle;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code quarkus.ketama.hash-tag}: a cluster taking over a twemproxy pool with {@code hash_tag: "{}"}
 * and {@code hash: md5} (unequal weights, a port other than 11211) sends each of the 6,000 keys
 * recorded from a real nutcracker 0.5.0, tagged or not, where nutcracker sent it.
 */
class TwemproxyHashTagTakeoverTest {

    static final RecordedPool POOL = RecordedPool.twemproxy("twemproxy-md5", "hash-tag");
    static final TestCluster CLUSTER = new TestCluster("ketama-hash-tag", POOL.servers().size());

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app(jar -> jar.addClass(RecordedPool.class),
            "quarkus.ketama.hash-style", "twemproxy-md5",
            "quarkus.ketama.hash-tag", POOL.hashTag(),
            "quarkus.ketama.member.node-id", POOL.nodeId(0),
            "quarkus.ketama.member.weight", Integer.toString(POOL.weight(0)));

    @Inject
    RingSelector selector;

    @AfterAll
    static void stopMembers() {
        CLUSTER.close();
    }

    @Test
    void everyRecordedKeyGoesWhereNutcrackerSentItByThePartBetweenTheTags() {
        assertThat(POOL.hashTag()).isEqualTo("{}");
        for (int i = 1; i < POOL.servers().size(); i++) {
            CLUSTER.start(i, POOL.weight(i), Set.of(), POOL.nodeId(i));
        }
        RingSnapshot all = awaitSnapshot(selector, s -> s.members().size() == POOL.servers().size(), "the pool's servers on the rings");
        assertThat(all.ring(RingVersion.V1).style()).isEqualTo(HashStyle.TWEMPROXY_MD5);
        Map<UUID, Integer> server = POOL.serverOf(all);
        List<String> keys = RecordedPool.keys();
        int[] owners = new int[keys.size()];
        int tagged = 0;
        for (int k = 0; k < keys.size(); k++) {
            String key = keys.get(k);
            owners[k] = server.get(selector.select(key).owner().getUuid());
            assertThat(server.get(selector.select(key.getBytes(StandardCharsets.UTF_8)).owner().getUuid())).isEqualTo(owners[k]);
            int open = key.indexOf('{');
            if (open >= 0 && key.indexOf('}', open + 1) > open + 1) {
                tagged++;
            }
        }
        assertThat(tagged).as("recorded keys with a non-empty {} tag").isGreaterThan(100);
        assertThat(owners).containsExactly(POOL.owners());
    }
}
