package io.ketama.quarkus.deployment;

import static io.ketama.quarkus.deployment.TestCluster.awaitSnapshot;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.ketama.client.DirectClient;
import io.ketama.client.DirectClientCounts;
import io.ketama.client.DirectRouting;
import io.ketama.core.RingVersion;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.runtime.MemberPart;
import io.ketama.testing.FreePorts;
import io.ketama.testing.LoopbackHazelcast;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.quarkus.runtime.Startup;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The direct client as a Quarkus REST client (issue 39, point 3) inside a Quarkus application of
 * the client role ({@code quarkus.ketama.role=client}): the application builds a REST client of the
 * service's {@code /cache} API with {@link DirectRouting} registered on it, over a {@link DirectClient}
 * of the {@code RingSelector} it injects. Three real members (the extension's member part on plain
 * Hazelcast members) each publish the port of a real HTTP server standing in for the service, which
 * names itself in its answer and echoes a request header. Each cached call is answered by its key's
 * owner on the members' rings, its header carried, without touching the REST client's base URI; a
 * {@code HEAD} likewise; a {@code POST} goes to the base URI.
 */
class DirectRestClientTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-direct-rest", 4);
    static final List<MemberPart> MEMBERS = new ArrayList<>();
    static final List<HttpServer> SERVERS = new ArrayList<>();
    /** Requests each member's HTTP server took, by member index (0 to 2); 3: the REST client's base URI. */
    static final Map<Integer, AtomicInteger> HITS = new ConcurrentHashMap<>();
    static final int ENTRY = 3;

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app(jar -> jar.addClasses(Members.class, Cache.class),
            "quarkus.ketama.role", "client");

    /** The service's cache API as an application declares it. */
    @Path("/cache")
    public interface Cache {
        @GET
        @Path("/{key}")
        Response get(@PathParam("key") String key, @HeaderParam("X-Test") String test);

        @HEAD
        @Path("/{key}")
        Response head(@PathParam("key") String key);

        @POST
        @Path("/{key}")
        Response post(@PathParam("key") String key, String body);
    }

    /** The three members and their HTTP servers, started before the extension makes its client; the base URI's server. */
    @Startup(100)
    @ApplicationScoped
    static class Members {
        @PostConstruct
        void start() throws IOException {
            synchronized (MEMBERS) {
                if (!MEMBERS.isEmpty()) {
                    return;
                }
                List<Integer> ports = FreePorts.take(4);
                for (int i = 0; i < 3; i++) {
                    SERVERS.add(server(i, ports.get(i)));
                    int port = ports.get(i);
                    MEMBERS.add(CLUSTER.startRunning(i + 1, MigrationSettings.DEFAULT, config -> {
                        config.getMemberAttributeConfig().setAttribute("ketama-router.http-port", Integer.toString(port));
                        config.getMemberAttributeConfig().setAttribute("ketama-router.http-host", LoopbackHazelcast.HOST);
                    }));
                }
                SERVERS.add(server(ENTRY, ports.get(ENTRY)));
            }
        }
    }

    static HttpServer server(int index, int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(LoopbackHazelcast.HOST, port), 0);
        HITS.put(index, new AtomicInteger());
        server.createContext("/cache/", exchange -> {
            HITS.get(index).incrementAndGet();
            exchange.getRequestBody().readAllBytes();
            byte[] body = (index == ENTRY ? "entry" : "member-" + index).getBytes(StandardCharsets.UTF_8);
            String echo = exchange.getRequestHeaders().getFirst("X-Test");
            exchange.getResponseHeaders().add("X-Echo", echo == null ? "" : echo);
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(200, head ? -1 : body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                if (!head) {
                    out.write(body);
                }
            }
        });
        server.start();
        return server;
    }

    @Inject
    RingSelector selector;

    @AfterAll
    static void stopMembers() {
        SERVERS.forEach(s -> s.stop(0));
        CLUSTER.close();
    }

    @Test
    void eachCachedCallOfTheRestClientIsAnsweredByItsKeysOwner() {
        awaitSnapshot(selector, s -> s.members().size() == 3, "the three members on the client's rings");
        DirectClient direct = new DirectClient(selector);
        Cache cache = QuarkusRestClientBuilder.newBuilder()
                .baseUri(URI.create("http://" + LoopbackHazelcast.HOST + ":" + SERVERS.get(ENTRY).getAddress().getPort()))
                .register(new DirectRouting(direct))
                .build(Cache.class);

        for (int i = 0; i < 100; i++) {
            String key = "object-" + i;
            try (Response r = cache.get(key, "t" + i)) {
                assertThat(r.getStatus()).isEqualTo(200);
                assertThat(r.readEntity(String.class)).as("who answered " + key).isEqualTo("member-" + ownerOnTheMembers(key));
                assertThat(r.getHeaderString("X-Echo")).as("the header the call carried").isEqualTo("t" + i);
            }
        }
        String key = "object-head";
        try (Response r = cache.head(key)) {
            assertThat(r.getStatus()).isEqualTo(200);
        }
        assertThat(HITS.get(ENTRY).get()).as("cached calls that reached the REST client's base URI").isZero();
        assertThat(HITS.get(0).get() + HITS.get(1).get() + HITS.get(2).get()).as("cached calls the members took").isEqualTo(101);
        DirectClientCounts counts = direct.counts();
        assertThat(counts.byOwner()).as("calls answered by their key's owner").isEqualTo(101);

        try (Response r = cache.post("object-1", "a body")) {
            assertThat(r.readEntity(String.class)).as("a POST goes to the base URI").isEqualTo("entry");
        }
        assertThat(HITS.get(ENTRY).get()).isEqualTo(1);
    }

    /** The index (0 to 2) of the member that owns {@code key} on the members' own rings. */
    private static int ownerOnTheMembers(String key) {
        Object owner = MEMBERS.get(0).snapshot().ring(RingVersion.V1).locate(key).payload();
        for (int i = 0; i < MEMBERS.size(); i++) {
            if (MEMBERS.get(i).snapshot().localMember().equals(owner)) {
                return i;
            }
        }
        throw new AssertionError("the owner of " + key + " is none of the three members: " + owner);
    }
}
