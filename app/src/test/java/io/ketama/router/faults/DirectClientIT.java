package io.ketama.router.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.client.DirectAnswer;
import io.ketama.client.DirectClient;
import io.ketama.client.DirectClientCounts;
import io.ketama.core.HashStyle;
import io.ketama.quarkus.MemberAddress;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.Selection;
import io.ketama.quarkus.runtime.ClientFollower;
import io.ketama.quarkus.runtime.RingSettings;
import io.ketama.testing.Await;
import io.ketama.testing.FreePorts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The direct client ({@code client/}) against three members of the packaged service on 127.0.0.1
 * (issue 39, points 3 and 6): its rings, followed through a Hazelcast client, name the owner the
 * members name for every one of 2,000 keys; each of its requests is answered by that owner with no
 * member-to-member forward (the members' own {@code ketama_router_requests_total{served}}, beside the
 * same keys entering on one member, two thirds of them forwarded); with a member stopped
 * ({@code SIGSTOP}) while still on every ring, every request is still answered, its keys by their
 * next candidate.
 */
class DirectClientIT {

    private static final String TOKEN = "direct-client-it-admin-token";
    private static final List<JarMember> STARTED = new CopyOnWriteArrayList<>();
    private static final List<AutoCloseable> CLOSE = new CopyOnWriteArrayList<>();

    @AfterAll
    static void stopAll() throws Exception {
        for (AutoCloseable c : CLOSE) {
            c.close();
        }
        STARTED.forEach(JarMember::stop);
    }

    @Test
    void eachRequestGoesStraightToItsOwnerAndAStoppedMembersKeysFailOver() throws Exception {
        assertThat(JarMember.JAR).as("the packaged application (mvn package)").exists();
        // HTTP ports given, not 0: a member publishes only a port it knows before it joins
        String cluster = "ketama-direct-it-" + UUID.randomUUID();
        List<JarMember> members = JarMember.startLoopback("direct-client-it", FreePorts.take(3),
                List.of("-Dquarkus.ketama.hazelcast.cluster-name=" + cluster), TOKEN, STARTED); // after the default name: this one counts
        List<String> hazelcast = members.stream().map(JarMember::clusterAddress).toList();
        LoopbackHttp http = new LoopbackHttp();
        Set<String> all = members.stream().map(JarMember::clusterAddress).collect(Collectors.toCollection(TreeSet::new));
        Settle.within(() -> MemberState.readAll(http, members, List.of("a", "b")), s -> MemberState.agree(s, all), Duration.ofSeconds(2),
                Duration.ofSeconds(120), "three members on every ring, agreeing");

        ClientConfig config = new ClientConfig();
        config.setClusterName(cluster);
        hazelcast.forEach(a -> config.getNetworkConfig().addAddress(a));
        config.setProperty("hazelcast.phone.home.enabled", "false");
        HazelcastInstance hz = HazelcastClient.newHazelcastClient(config);
        CLOSE.add(0, hz::shutdown);
        ClientFollower follower = ClientFollower.follow(hz, new RingSettings(HashStyle.PINGORA, 16)); // the service's defaults
        CLOSE.add(0, follower);
        RingSelector rings = follower.selector();
        Await.until(() -> rings.snapshot().members().size() == 3, Duration.ofSeconds(30), "the three members on the client's rings");

        // the client's owner is the members' owner
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            keys.add("objects/" + i + "?v=" + (i % 13));
        }
        MemberState view = MemberState.read(http, members.get(1), keys);
        assertThat(view.answered()).as(view.why()).isTrue();
        List<String> mismatched = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            String clientOwner = MemberAddress.of(rings.select(keys.get(i)).owner());
            if (!clientOwner.equals(view.owners().get(i))) {
                mismatched.add(keys.get(i) + ": client " + clientOwner + ", member " + view.owners().get(i));
            }
        }
        assertThat(mismatched).as("keys the client places elsewhere than member 1").isEmpty();

        // entering on one member: two thirds forwarded, so the counter below can see a forward
        Forwards before = Forwards.read(http, members);
        for (String key : keys.subList(0, 300)) {
            assertThat(http.get(members.get(0).http() + "/cache/" + key, 5_000).status()).isEqualTo(200);
        }
        Forwards entering = Forwards.read(http, members).minus(before);
        assertThat(entering.forwarded()).as("requests entering on member 0 that another member served").isGreaterThan(150);

        // the direct client: every request answered by its owner, nothing forwarded
        DirectClient direct = new DirectClient(rings);
        Forwards start = Forwards.read(http, members);
        for (String key : keys.subList(300, 1_300)) {
            DirectAnswer a = direct.get(key);
            String owner = MemberAddress.of(rings.select(key).owner());
            assertThat(a.status()).as(key).isEqualTo(200);
            assertThat(a.owner()).as(key).isTrue();
            assertThat(a.response().headers().firstValue("X-Ketama-Owner")).as(key).hasValue(owner);
            if (!a.spilled()) { // bounded loads: an owner past its bound hands the key to its next candidate, one forward
                assertThat(a.response().headers().firstValue("X-Ketama-Served-By")).as(key).hasValue(owner);
            }
        }
        Forwards direct1000 = Forwards.read(http, members).minus(start);
        System.out.printf("DirectClientIT: 300 requests entering on member 0: %d served there, %d forwarded; 1,000 direct: %d served where "
                + "they entered, %d forwarded%n", entering.local(), entering.forwarded(), direct1000.local(), direct1000.forwarded());
        long spilled = direct.counts().spilled();
        assertThat(direct1000.forwarded()).as("direct requests a member forwarded: the owner's spills only").isEqualTo(spilled);
        assertThat(direct1000.local()).as("direct requests served where they entered").isEqualTo(1_000 - spilled);
        assertThat(direct.counts()).isEqualTo(new DirectClientCounts(1_000, 1_000, 0, 0, spilled, 0));

        // a stopped member, still on every ring: its keys fail over, nothing goes unanswered
        JarMember stopped = members.get(2);
        stopped.signal("STOP");
        long stoppedAt = System.nanoTime();
        try {
            int ownedByStopped = 0;
            for (String key : keys.subList(1_300, 1_600)) {
                Selection s = rings.select(key);
                DirectAnswer a = direct.get(key);
                assertThat(a.status()).as(key).isEqualTo(200);
                if (MemberAddress.of(s.owner()).equals(stopped.clusterAddress())) {
                    ownedByStopped++;
                    assertThat(a.owner()).as(key).isFalse();
                    assertThat(a.response().headers().firstValue("X-Ketama-Served-By")).as(key)
                            .isNotEqualTo(java.util.Optional.of(stopped.clusterAddress()));
                }
            }
            DirectClientCounts counts = direct.counts();
            System.out.printf("DirectClientIT: member 2 stopped: %d of 300 keys its own, %s%n", ownedByStopped, counts);
            assertThat(ownedByStopped).as("keys of the stopped member among the 300").isPositive();
            assertThat(counts.unanswered()).isZero();
            // three timeouts open its breaker; then one probe (another timeout) each time the hold of 2 s has passed
            long seconds = Duration.ofNanos(System.nanoTime() - stoppedAt).toSeconds();
            assertThat(counts.failedOver()).as("timeouts at the stopped member in %d s", seconds).isBetween(1L, 3 + seconds / 4 + 1);
            assertThat(counts.heldOff()).as("its keys sent past it while its breaker held it off").isGreaterThan(ownedByStopped / 2);
        } finally {
            stopped.signal("CONT");
        }

        // a member killed: its keys fail over at once; once it has left the client's rings (the members'
        // failure timeout, then ClientFollower.BOUND), no request is sent to it any more
        Await.until(() -> rings.snapshot().members().size() == 3, Duration.ofSeconds(60), "member 2 back on the client's rings");
        JarMember killed = members.get(1);
        killed.signal("KILL");
        long killedAt = System.nanoTime();
        for (String key : keys.subList(1_600, 1_800)) {
            assertThat(direct.get(key).status()).as(key).isEqualTo(200);
        }
        Await.until(() -> rings.snapshot().members().stream().noneMatch(m -> m.address().equals(killed.clusterAddress())),
                Duration.ofSeconds(60), "the killed member off the client's rings");
        long left = Duration.ofNanos(System.nanoTime() - killedAt).toMillis();
        Thread.sleep(ClientFollower.BOUND.toMillis());
        DirectClientCounts beforeKeys = direct.counts();
        for (String key : keys.subList(1_800, 2_000)) {
            DirectAnswer a = direct.get(key);
            assertThat(a.status()).as(key).isEqualTo(200);
            assertThat(a.response().headers().firstValue("X-Ketama-Served-By")).as(key).isNotEqualTo(java.util.Optional.of(killed.clusterAddress()));
        }
        DirectClientCounts after = direct.counts();
        System.out.printf("DirectClientIT: member 1 killed: off the client's rings %d ms later; %s%n", left, after);
        assertThat(after.unanswered()).isZero();
        assertThat(after.failedOver() - beforeKeys.failedOver()).as("attempts at the killed member once it had left the rings").isZero();
        assertThat(after.byOwner() - beforeKeys.byOwner()).as("answers by their owner among the remaining two").isEqualTo(200);
    }

    /** What the members' {@code ketama_router_requests_total{served}} say, summed over members. */
    private record Forwards(long local, long forwarded) {

        static Forwards read(Http http, List<JarMember> members) {
            long local = 0;
            long forwarded = 0;
            for (JarMember m : members) {
                Http.Answer metrics = http.get(m.management() + "/q/metrics", 5_000);
                assertThat(metrics).as("metrics of " + m.name()).isNotNull();
                for (String line : metrics.body().split("\n")) {
                    if (!line.startsWith("ketama_router_requests_total{")) {
                        continue;
                    }
                    long value = (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                    if (line.contains("served=\"forwarded\"")) {
                        forwarded += value;
                    } else if (line.contains("served=\"local\"")) {
                        local += value;
                    }
                }
            }
            return new Forwards(local, forwarded);
        }

        Forwards minus(Forwards earlier) {
            return new Forwards(local - earlier.local, forwarded - earlier.forwarded);
        }
    }
}
