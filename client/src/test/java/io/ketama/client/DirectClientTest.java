package io.ketama.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.sun.net.httpserver.HttpServer;
import io.ketama.core.HashStyle;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSource;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.runtime.ClientFollower;
import io.ketama.quarkus.runtime.MemberPart;
import io.ketama.quarkus.runtime.RingSettings;
import io.ketama.testing.Await;
import io.ketama.testing.FreePorts;
import io.ketama.testing.LoopbackHazelcast;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The direct client against three real Hazelcast members running the extension's cluster part on
 * 127.0.0.1, each publishing the port of a real HTTP server (the JDK's, standing in for the service:
 * it names itself in its answer and echoes a request header), and a real Hazelcast client following
 * them ({@link ClientFollower}): each key goes to its owner, header fields travel, a stopped member's
 * keys fail over to their next candidate and its breaker then holds it off, a {@code 503} with
 * {@code Retry-After} holds its member off for that long, and bad calls are refused with what is allowed.
 */
class DirectClientTest {

    private static final RingSettings RING = new RingSettings(HashStyle.PINGORA, 16);
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private final List<AutoCloseable> running = new ArrayList<>();
    private final List<HazelcastInstance> members = new ArrayList<>();
    private final List<MemberPart> memberRings = new ArrayList<>();
    private final List<HttpServer> servers = new ArrayList<>();
    /** Requests each member's HTTP server took. */
    private final Map<Integer, AtomicInteger> hits = new ConcurrentHashMap<>();
    /** What member index answers {@code 503 Retry-After: 5} (-1: none). */
    private final AtomicInteger busyMember = new AtomicInteger(-1);
    private RingSelector client;

    @BeforeEach
    void start() throws IOException {
        String cluster = "ketama-direct-" + java.util.UUID.randomUUID();
        List<Integer> hzPorts = FreePorts.take(3);
        List<Integer> httpPorts = FreePorts.take(3);
        for (int i = 0; i < 3; i++) {
            servers.add(server(i, httpPorts.get(i)));
            Config config = LoopbackHazelcast.fixedPort(cluster, hzPorts.get(i), hzPorts);
            config.getNetworkConfig().getInterfaces().setEnabled(true).addInterface(LoopbackHazelcast.HOST);
            MemberAttributes.publish(config, 1, Set.of(), "default", null);
            MemberAttributes.gate(config);
            config.getMemberAttributeConfig().setAttribute(MemberEndpoint.HTTP_PORT, Integer.toString(httpPorts.get(i)));
            config.getMemberAttributeConfig().setAttribute(MemberEndpoint.HTTP_HOST, LoopbackHazelcast.HOST);
            HazelcastInstance hz = Hazelcast.newHazelcastInstance(config);
            members.add(hz);
            running.add(hz::shutdown);
            MemberPart rings = MemberPart.startOn(hz, RING, MigrationSettings.DEFAULT, MigrationSource.CLUSTER, Duration.ofMillis(50));
            running.add(0, rings);
            rings.open();
            memberRings.add(rings);
        }
        ClientConfig config = new ClientConfig();
        config.setClusterName(cluster);
        hzPorts.forEach(p -> config.getNetworkConfig().addAddress(LoopbackHazelcast.HOST + ":" + p));
        config.setProperty("hazelcast.phone.home.enabled", "false");
        HazelcastInstance hzClient = HazelcastClient.newHazelcastClient(config);
        running.add(0, hzClient::shutdown);
        ClientFollower follower = ClientFollower.follow(hzClient, RING);
        running.add(0, follower);
        client = follower.selector();
        Await.until(() -> client.snapshot().members().size() == 3, DEADLINE, "three members on the client's rings");
    }

    @AfterEach
    void stop() throws Exception {
        servers.forEach(s -> s.stop(0));
        for (AutoCloseable c : running) {
            c.close();
        }
    }

    private HttpServer server(int index, int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(LoopbackHazelcast.HOST, port), 0);
        hits.put(index, new AtomicInteger());
        server.createContext("/cache/", exchange -> {
            hits.get(index).incrementAndGet();
            byte[] body = ("member-" + index).getBytes(StandardCharsets.UTF_8);
            if (busyMember.get() == index) {
                exchange.getResponseHeaders().add("Retry-After", "5");
                exchange.sendResponseHeaders(503, -1);
                exchange.close();
                return;
            }
            String echo = exchange.getRequestHeaders().getFirst("X-Test");
            exchange.getResponseHeaders().add("X-Echo", echo == null ? "" : echo);
            String passed = exchange.getRequestHeaders().getFirst(DirectClient.PASSED_OVER);
            exchange.getResponseHeaders().add("X-Echo-Passed-Over", passed == null ? "" : passed);
            exchange.getResponseHeaders().add("X-Path", exchange.getRequestURI().getRawPath()
                    + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery()));
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return server;
    }

    /** The index of the member that owns {@code key} on the members' own rings. */
    private int ownerOnTheMembers(String key) {
        Member owner = memberRings.get(0).snapshot().ring(io.ketama.core.RingVersion.V1).locate(key).payload();
        for (int i = 0; i < members.size(); i++) {
            if (members.get(i).getCluster().getLocalMember().getUuid().equals(owner.getUuid())) {
                return i;
            }
        }
        throw new AssertionError("owner of " + key + " is none of the members: " + owner);
    }

    private int indexOf(Member member) {
        for (int i = 0; i < members.size(); i++) {
            if (members.get(i).getCluster().getLocalMember().getUuid().equals(member.getUuid())) {
                return i;
            }
        }
        throw new AssertionError(member + " is none of the members");
    }

    @Test
    void eachKeyGoesToItsOwnerWithTheCallersHeaderFields() {
        DirectClient direct = new DirectClient(client);
        for (int i = 0; i < 600; i++) {
            String key = "objects/" + i + "?v=" + (i % 7);
            DirectAnswer a = direct.send("GET", key, Map.of("X-Test", List.of("t" + i)));
            int owner = ownerOnTheMembers(key);
            assertThat(a.status()).isEqualTo(200);
            assertThat(new String(a.body(), StandardCharsets.UTF_8)).as(key).isEqualTo("member-" + owner);
            assertThat(a.owner()).isTrue();
            assertThat(a.failedCandidates()).isZero();
            assertThat(a.sentToOthers()).isEmpty();
            assertThat(a.response().headers().firstValue("X-Echo")).hasValue("t" + i);
            assertThat(a.response().headers().firstValue("X-Path")).hasValue("/cache/" + key);
            assertThat(a.response().headers().firstValue("X-Echo-Passed-Over")).hasValue("");
        }
        assertThat(hits.values().stream().mapToInt(AtomicInteger::get).min().orElse(0)).as("every member owns some keys").isPositive();
        assertThat(direct.counts()).isEqualTo(new DirectClientCounts(600, 600, 0, 0, 0, 0));
    }

    @Test
    void aJaxRsClientWithDirectRoutingSendsCachedRequestsToTheirOwnersAndOthersToItsBaseUri() {
        DirectClient direct = new DirectClient(client);
        jakarta.ws.rs.client.Client jaxrs = jakarta.ws.rs.client.ClientBuilder.newClient().register(new DirectRouting(direct));
        // member 0's HTTP port: where a request that is not a cached one goes, as the client was built
        String base = "http://" + LoopbackHazelcast.HOST + ":" + servers.get(0).getAddress().getPort();
        try {
            for (int i = 0; i < 100; i++) {
                String key = "k/" + i;
                try (jakarta.ws.rs.core.Response r = jaxrs.target(base).path("cache/" + key).request().header("X-Test", "t" + i).get()) {
                    assertThat(r.getStatus()).isEqualTo(200);
                    assertThat(r.readEntity(String.class)).as(key).isEqualTo("member-" + ownerOnTheMembers(key));
                    assertThat(r.getHeaderString("X-Echo")).isEqualTo("t" + i);
                    assertThat(r.getHeaderString("X-Path")).isEqualTo("/cache/" + key);
                }
            }
            try (jakarta.ws.rs.core.Response head = jaxrs.target(base).path("cache/k/1").request().head()) {
                assertThat(head.getStatus()).isEqualTo(200);
                assertThat(head.hasEntity()).isFalse();
            }
            assertThat(direct.counts().answered()).as("the 100 GETs and the HEAD, through the direct client").isEqualTo(101);

            String notMemberZeros = null;
            for (int i = 0; notMemberZeros == null; i++) {
                notMemberZeros = ownerOnTheMembers("p/" + i) == 0 ? null : "p/" + i;
            }
            try (jakarta.ws.rs.core.Response post = jaxrs.target(base).path("cache/" + notMemberZeros).request()
                    .post(jakarta.ws.rs.client.Entity.text("x"))) {
                assertThat(post.readEntity(String.class)).as("a POST is not routed: it goes to the base URI, member 0")
                        .isEqualTo("member-0");
            }
            assertThat(direct.counts().answered()).isEqualTo(101);
        } finally {
            jaxrs.close();
        }
    }

    @Test
    void aStoppedMembersKeysFailOverToTheirNextCandidateAndItsBreakerHoldsItOff() {
        DirectClient direct = new DirectClient(client);
        String stoppedEndpoint = "127.0.0.1:" + servers.get(0).getAddress().getPort();
        servers.get(0).stop(0); // member 0 stays in the cluster and on the rings: only its HTTP port is gone
        int ownedByZero = 0;
        int sentToStopped = 0;
        for (int i = 0; ownedByZero < 50; i++) {
            String key = "k/" + i;
            DirectAnswer a = direct.get(key);
            assertThat(a.status()).isEqualTo(200);
            List<Member> candidates = client.select(key).candidates();
            if (ownerOnTheMembers(key) == 0) {
                ownedByZero++;
                assertThat(new String(a.body(), StandardCharsets.UTF_8)).as(key).isEqualTo("member-" + indexOf(candidates.get(1)));
                assertThat(a.owner()).isFalse();
                assertThat(a.failedCandidates()).isEqualTo(1);
                assertThat(a.sentToOthers()).as("sent to the stopped member, or skipped it while its breaker held it off")
                        .isIn(List.of(stoppedEndpoint), List.of());
                sentToStopped += a.sentToOthers().size();
                assertThat(a.response().headers().firstValue("X-Echo-Passed-Over")).as("the candidate is told the owner was passed over")
                        .hasValue(io.ketama.quarkus.MemberAddress.of(members.get(0).getCluster().getLocalMember()));
            } else {
                assertThat(a.owner()).isTrue();
            }
        }
        DirectClientCounts counts = direct.counts();
        assertThat(counts.unanswered()).isZero();
        assertThat(counts.failedOver()).as("connection failures before the breaker held member 0 off")
                .isEqualTo(DirectClientSettings.DEFAULTS.breakerFailures());
        assertThat(counts.heldOff()).as("member 0's keys skipped it while held off").isEqualTo(50 - counts.failedOver());
        assertThat(sentToStopped).as("requests that reached the stopped member's port: those before the breaker opened")
                .isEqualTo(counts.failedOver());
    }

    @Test
    void a503WithRetryAfterHoldsItsMemberOffAndTheNextCandidateServes() {
        DirectClient direct = new DirectClient(client);
        busyMember.set(1);
        List<String> keysOfOne = new ArrayList<>();
        for (int i = 0; keysOfOne.size() < 20; i++) {
            if (ownerOnTheMembers("b/" + i) == 1) {
                keysOfOne.add("b/" + i);
            }
        }
        for (String key : keysOfOne) {
            DirectAnswer a = direct.get(key);
            assertThat(a.status()).isEqualTo(200);
            assertThat(new String(a.body(), StandardCharsets.UTF_8)).isEqualTo("member-" + indexOf(client.select(key).candidates().get(1)));
        }
        assertThat(hits.get(1).get()).as("member 1 asked once, then held off for its Retry-After").isEqualTo(1);
        assertThat(direct.counts().heldOff()).isEqualTo(19);
    }

    @Test
    void whenEveryCandidateIsBusyTheLast503IsTheAnswer() {
        DirectClient direct = new DirectClient(client, new DirectClientSettings(Duration.ofSeconds(1), Duration.ofSeconds(2), 1, 3,
                Duration.ofSeconds(2), Duration.ofSeconds(30)));
        AtomicReference<String> key = new AtomicReference<>();
        for (int i = 0; key.get() == null; i++) {
            if (ownerOnTheMembers("c/" + i) == 2) {
                key.set("c/" + i);
            }
        }
        busyMember.set(2);
        DirectAnswer a = direct.get(key.get());
        assertThat(a.status()).isEqualTo(503);
        assertThat(a.response().headers().firstValue("Retry-After")).hasValue("5");
    }

    @Test
    void badCallsAreRefusedSayingWhatIsAllowed() {
        DirectClient direct = new DirectClient(client);
        assertThatThrownBy(() -> direct.send("POST", "k", Map.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("GET and HEAD");
        assertThatThrownBy(() -> direct.get("a key")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a request target");
        assertThatThrownBy(() -> direct.get("")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 to 8192");
        assertThatThrownBy(() -> new DirectClientSettings(Duration.ZERO, Duration.ofSeconds(1), 3, 3, Duration.ofSeconds(1),
                Duration.ofSeconds(1))).hasMessageContaining("connectTimeout must be positive");
        assertThatThrownBy(() -> ClientFollower.follow(members.get(0), RING)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is a member");
        assertThat(direct.counts()).isEqualTo(new DirectClientCounts(0, 0, 0, 0, 0, 0));
    }
}
