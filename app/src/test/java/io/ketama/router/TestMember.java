package io.ketama.router;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.router.forwarding.binary.BinaryForwardServer;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.hazelcast.HazelcastForwarding;
import io.ketama.router.purge.MemberPurge;
import io.ketama.router.purge.PurgeSerialization;
import io.ketama.router.forwarding.http.HttpForwardHandler;
import io.ketama.router.forwarding.http.HttpForwarding;
import io.ketama.router.forwarding.channel.PeerEndpoints;
import io.ketama.router.load.LoadBoard;
import io.ketama.router.load.LoadSettings;
import io.ketama.router.load.OwnerLoad;
import io.ketama.router.serving.BoundedOrigin;
import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.Origin;
import io.ketama.router.caching.OriginAnswer;
import io.ketama.testing.LoopbackHazelcast;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A plain-Java Hazelcast member in the test JVM that serves forwarded keys the way the service
 * does: the real {@link KeyServer} over a real cache and a bounded origin, behind the real
 * {@link ForwardReceiver} of every transport (binary channel, an HTTP server with the forward
 * path, the Hazelcast executor), on event loops of its own. It joins the cluster of the Quarkus app under test
 * over TCP/IP on 127.0.0.1. Started with {@link LoadSettings}, it also counts what it serves in the real
 * {@link OwnerLoad}, publishes it on the real {@link LoadBoard} (weight 1) and spills past its bound as a
 * service member does; otherwise it serves everything and publishes nothing.
 */
final class TestMember implements AutoCloseable {

    final HazelcastInstance hazelcast;
    final KeyServer keyServer;
    final ForwardReceiver receiver;
    final AtomicInteger originFetches;
    /** Its own event loops, as a member process has: closing them closes its channels. */
    private final Vertx vertx;
    private final BinaryForwardServer binary;
    /** Kept from start-up: a stopped instance no longer answers for its member. */
    private final Member member;
    /** What it serves, and its bound (unbounded unless started with settings). */
    final OwnerLoad load;
    /** Where it publishes its load; null: it publishes none. */
    private final LoadBoard board;

    private TestMember(HazelcastInstance hazelcast, KeyServer keyServer, ForwardReceiver receiver, AtomicInteger originFetches,
                       Vertx vertx, BinaryForwardServer binary, OwnerLoad load, LoadBoard board) {
        this.hazelcast = hazelcast;
        this.keyServer = keyServer;
        this.receiver = receiver;
        this.originFetches = originFetches;
        this.vertx = vertx;
        this.binary = binary;
        this.member = hazelcast.getCluster().getLocalMember();
        this.load = load;
        this.board = board;
    }

    /**
     * Starts a member of {@code clusterName} on a free port ({@link LoopbackHazelcast#anyFreePort}) that joins
     * the members at {@code joinPorts} (on 127.0.0.1; none: it waits for others to join it).
     */
    static TestMember start(String clusterName, Collection<Integer> joinPorts, Set<String> features, String nodeId) {
        return start(clusterName, joinPorts, features, nodeId, new DemoOrigin(Duration.ZERO));
    }

    /** As above, with {@code origin} behind the member's cache (a slow one, say). */
    static TestMember start(String clusterName, Collection<Integer> joinPorts, Set<String> features, String nodeId,
                            Origin origin) {
        return start(clusterName, joinPorts, features, nodeId, origin, 256);
    }

    /** As above, with at most {@code originLimit} origin fetches under way at once. */
    static TestMember start(String clusterName, Collection<Integer> joinPorts, Set<String> features, String nodeId,
                            Origin origin, int originLimit) {
        return start(clusterName, joinPorts, features, nodeId, origin, originLimit, ForwardSecret.NONE);
    }

    /** As above, taking forwards (binary and http) only from members that show {@code secret}. */
    static TestMember start(String clusterName, Collection<Integer> joinPorts, Set<String> features, String nodeId,
                            Origin origin, int originLimit, ForwardSecret secret) {
        return start(clusterName, joinPorts, features, nodeId, origin, originLimit, secret, 1 << 20);
    }

    /** As above, its cache holding at most {@code cacheBytes} (1 MiB where not given). */
    static TestMember start(String clusterName, Collection<Integer> joinPorts, Set<String> features, String nodeId,
                            Origin origin, int originLimit, ForwardSecret secret, long cacheBytes) {
        return start(clusterName, joinPorts, features, nodeId, origin, originLimit, secret, cacheBytes, null);
    }

    /** As above, holding itself to bounded loads with {@code load} (null: unbounded, publishing nothing). */
    static TestMember start(String clusterName, Collection<Integer> joinPorts, Set<String> features, String nodeId,
                            Origin origin, int originLimit, ForwardSecret secret, long cacheBytes, LoadSettings load) {
        Config config = LoopbackHazelcast.anyFreePort(clusterName, joinPorts);
        config.setClassLoader(TestMember.class.getClassLoader());
        config.setProperty("hazelcast.logging.type", "jdk");
        HazelcastForwarding.configure(config, 32, 1024);
        PurgeSerialization.configure(config);
        config.getMemberAttributeConfig().setAttribute(io.ketama.router.purge.ClusterPurge.STARTED_ATTRIBUTE,
                Long.toString(System.currentTimeMillis())); // a member of this release: purged by the purge task
        MemberAttributes.publish(config, 1, features, "default", nodeId);
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
        ForwardReceiver receiver = new ForwardReceiver();
        BinaryForwardServer binary = BinaryForwardServer.start(vertx, "127.0.0.1", 0, receiver, secret);
        config.getMemberAttributeConfig().setAttribute(PeerEndpoints.BINARY_PORT, Integer.toString(binary.port()));
        HttpForwardHandler forwards = new HttpForwardHandler(receiver, secret);
        HttpServer http = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0))
                .requestHandler(request -> {
                    if (request.uri().startsWith(HttpForwarding.PREFIX)) {
                        forwards.handle(request);
                    } else {
                        request.response().setStatusCode(404).end();
                    }
                })
                .listen().toCompletionStage().toCompletableFuture().join();
        config.getMemberAttributeConfig().setAttribute(PeerEndpoints.HTTP_PORT, Integer.toString(http.actualPort()));
        config.getMemberAttributeConfig().setAttribute(PeerEndpoints.CHANNEL_VERSION, PeerEndpoints.THIS_CHANNEL_VERSION);
        HazelcastInstance hz = Hazelcast.newHazelcastInstance(config);
        AtomicInteger fetches = new AtomicInteger();
        Origin counting = key -> {
            fetches.incrementAndGet();
            return origin.fetch(key);
        };
        String address = Members.address(hz.getCluster().getLocalMember());
        KeyServer server = new KeyServer(new LocalCache(cacheBytes), new BoundedOrigin(counting, originLimit), address);
        OwnerLoad owner = load == null ? OwnerLoad.unbounded() : new OwnerLoad(load, null);
        LoadBoard board = load == null ? null : LoadBoard.start(hz, owner, () -> 1);
        receiver.attach(server, owner);
        hz.getUserContext().put(ForwardReceiver.USER_CONTEXT_KEY, receiver);
        hz.getUserContext().put(MemberPurge.USER_CONTEXT_KEY, new MemberPurge(server.cache(), null)); // purged as a service member is
        return new TestMember(hz, server, receiver, fetches, vertx, binary, owner, board);
    }

    Member member() {
        return member;
    }

    String address() {
        return Members.address(member());
    }

    int port() {
        return member().getAddress().getPort();
    }

    /** Stops serving keys while staying a member: forwards to it fail with {@code NotServingException}. */
    void stopServing() {
        receiver.detach();
    }

    void resumeServing() {
        receiver.attach(keyServer, load);
    }

    /** Dies without a word: Hazelcast terminated, its channels closed under the forwards on them. */
    void crash() {
        hazelcast.getLifecycleService().terminate();
        binary.close();
        vertx.close();
    }

    OriginAnswer cached(String key) {
        return keyServer.cache().peek(key);
    }

    @Override
    public void close() {
        if (board != null) {
            board.close();
        }
        receiver.detach();
        if (hazelcast.getLifecycleService().isRunning()) {
            hazelcast.shutdown();
        }
        binary.close();
        vertx.close();
    }
}
