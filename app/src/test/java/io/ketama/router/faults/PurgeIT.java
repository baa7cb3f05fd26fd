package io.ketama.router.faults;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.ketama.testing.FreePorts;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Purges across three {@code java -jar} members on 127.0.0.1 in front of a real HTTP origin in this
 * JVM, near copies made hot on the entries that do not own a key (kept a minute, so only a purge
 * can explain a new answer): a purge by key and by tag through one member, after which no member
 * serves the old body, near copies included; a {@code POST} through one member that drops the owner's
 * copy; a purge without the token refused with nothing dropped; the {@code PURGE} method; and a member
 * paused (SIGSTOP) during a purge, named in a {@code 202}, that serves none of the purged answers
 * once it runs again.
 */
class PurgeIT {

    private static final String TOKEN = "purge-it-" + UUID.randomUUID();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> PROBE = List.of("purge-probe-0", "purge-probe-1", "purge-probe-2");
    private static final List<JarMember> STARTED = new CopyOnWriteArrayList<>();

    private HttpServer originServer;

    @AfterEach
    void stopAll() {
        STARTED.forEach(JarMember::stop);
        STARTED.clear();
        if (originServer != null) {
            originServer.stop(0);
        }
    }

    /**
     * The origin: {@code GET /origin/<name>} answers {@code max-age=600} with {@code <name> version <n>},
     * the name's current version; names {@code tagged-*} carry {@code Surrogate-Key: grp}; a {@code POST}
     * answers 200 and moves the name to its next version.
     */
    private static final class Origin {
        final Map<String, AtomicInteger> versions = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> posts = new ConcurrentHashMap<>();

        AtomicInteger version(String name) {
            return versions.computeIfAbsent(name, n -> new AtomicInteger(1));
        }

        void handle(HttpExchange exchange) throws IOException {
            String name = exchange.getRequestURI().getRawPath().substring("/origin/".length());
            String body;
            if (exchange.getRequestMethod().equals("POST")) {
                exchange.getRequestBody().readAllBytes();
                posts.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
                body = name + " now version " + version(name).incrementAndGet();
                exchange.getResponseHeaders().add("Cache-Control", "no-store");
            } else {
                body = name + " version " + version(name).get();
                exchange.getResponseHeaders().add("Cache-Control", "max-age=600");
                if (name.startsWith("tagged-")) {
                    exchange.getResponseHeaders().add("Surrogate-Key", "grp " + name);
                }
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Test
    void purgedAnswersAreServedByNoMemberNearCopiesAndAPausedMemberIncluded() throws Exception {
        assertThat(JarMember.JAR).as("the packaged application (mvn package)").exists();
        Origin origin = new Origin();
        originServer = HttpServer.create(new InetSocketAddress("127.0.0.1", FreePorts.take()), 64);
        originServer.createContext("/origin/", origin::handle);
        originServer.setExecutor(Executors.newFixedThreadPool(8));
        originServer.start();
        String baseUrl = "http://127.0.0.1:" + originServer.getAddress().getPort() + "/origin";

        List<JarMember> members = JarMember.startLoopback("purge-it", 3, List.of("-Dketama.router.origin.base-url=" + baseUrl,
                "-Dketama.router.near-cache.ttl=60s", "-Dketama.router.hot-keys.min-requests=2"), TOKEN, STARTED);
        LoopbackHttp http = new LoopbackHttp();
        Set<String> all = members.stream().map(JarMember::clusterAddress).collect(Collectors.toCollection(TreeSet::new));
        Settle.within(() -> MemberState.readAll(http, members, PROBE), s -> MemberState.agree(s, all), Duration.ofSeconds(2),
                Duration.ofSeconds(120), "three members on every ring, agreeing");
        JarMember first = members.get(0);

        // by key: stored on its owner and kept near on the other two
        String key = "/k1";
        nearEverywhere(http, members, key, "k1 version 1");
        origin.version("k1").set(2);
        everyMemberServes(http, members, key, "k1 version 1"); // the change alone reaches no client: stored for 600 s
        JsonNode byKey = purge(http, first, "{\"keys\": [\"" + key + "\"]}", 200);
        assertThat(texts(byKey.path("confirmed"))).containsExactlyInAnyOrderElementsOf(all);
        assertThat(byKey.path("dropped").asLong()).as("the owner's answer and two near copies").isGreaterThanOrEqualTo(3);
        everyMemberServes(http, members, key, "k1 version 2");

        // by tag
        List<String> tagged = List.of("/tagged-1", "/tagged-2", "/tagged-3", "/tagged-4");
        for (String t : tagged) {
            for (JarMember m : members) {
                HttpResponse<String> r = get(http, m, t, Map.of());
                assertThat(r.statusCode()).isEqualTo(200);
                assertThat(r.headers().firstValue("Surrogate-Key")).as("tags are this cache's, not the client's").isEmpty();
            }
            origin.version(t.substring(1)).set(2);
        }
        JsonNode byTag = purge(http, members.get(1), "{\"tags\": [\"grp\"]}", 200);
        assertThat(texts(byTag.path("confirmed"))).containsExactlyInAnyOrderElementsOf(all);
        for (String t : tagged) {
            everyMemberServes(http, members, t, t.substring(1) + " version 2");
        }

        // an unsafe method through a member that does not own the key
        String posted = "/k2";
        nearEverywhere(http, members, posted, "k2 version 1");
        JarMember notOwner = members.stream().filter(m -> !m.clusterAddress().equals(owner(http, first, posted))).findFirst()
                .orElseThrow();
        HttpResponse<String> post = http.client().send(HttpRequest.newBuilder(URI.create(notOwner.http() + posted))
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString("x=1")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(200);
        assertThat(post.body()).isEqualTo("k2 now version 2");
        assertThat(origin.posts.get("k2")).hasValue(1);
        everyMemberServes(http, members, posted, "k2 version 2");

        // without the token: refused, nothing dropped; the PURGE method with it
        String guarded = "/k3";
        everyMemberServes(http, members, guarded, "k3 version 1");
        origin.version("k3").set(2);
        JsonNode refused = purge(http, first, "{\"keys\": [\"" + guarded + "\"]}", 401, null);
        assertThat(refused.path("type").asText()).isEqualTo("urn:ketama:problem:unauthorized");
        assertThat(send(http, first.http() + guarded, "PURGE", null, null).statusCode()).isEqualTo(401);
        assertThat(send(http, first.http() + guarded, "PURGE", "Bearer wrong", null).statusCode()).isEqualTo(401);
        everyMemberServes(http, members, guarded, "k3 version 1");
        JsonNode bad = purge(http, first, "{\"keys\": []}", 400);
        assertThat(bad.path("detail").asText()).startsWith("nothing to purge");
        HttpResponse<String> purged = send(http, members.get(2).http() + guarded, "PURGE", "Bearer " + TOKEN, null);
        assertThat(purged.statusCode()).as(purged.body()).isEqualTo(200);
        everyMemberServes(http, members, guarded, "k3 version 2");

        // a member paused during a purge: named in a 202, and serves none of it once it runs again
        JarMember paused = members.get(2);
        String held = null;
        for (int n = 0; held == null; n++) {
            if (owner(http, first, "/k4-" + n).equals(paused.clusterAddress())) {
                held = "/k4-" + n;
            }
        }
        everyMemberServes(http, members, held, held.substring(1) + " version 1");
        origin.version(held.substring(1)).set(2);
        paused.signal("STOP");
        JsonNode partial;
        try {
            partial = purge(http, first, "{\"keys\": [\"" + held + "\"]}", 202);
        } finally {
            paused.signal("CONT");
        }
        assertThat(partial.path("notConfirmed").has(paused.clusterAddress())).as("%s", partial).isTrue();
        HttpResponse<String> after = get(http, paused, held, Map.of());
        assertThat(after.body()).as("the paused member's first answer after it ran again").isEqualTo(held.substring(1) + " version 2");
        everyMemberServes(http, members, held, held.substring(1) + " version 2");
        assertThat(paused.logText()).contains("purge fence").contains("stood still");
        System.out.printf("PurgeIT: by key %d ms, by tag %d ms, with a paused member %d ms (202)%n", byKey.path("millis").asLong(),
                byTag.path("millis").asLong(), partial.path("millis").asLong());
    }

    /** Asks for {@code path} on every member until each entry that does not own it answers from a near copy. */
    private static void nearEverywhere(LoopbackHttp http, List<JarMember> members, String path, String body) throws Exception {
        String owner = owner(http, members.get(0), path);
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        Set<String> near = new TreeSet<>();
        while (near.size() < members.size() - 1) {
            assertThat(System.nanoTime()).as("near copies of %s on every entry but its owner; so far %s", path, near).isLessThan(end);
            for (JarMember m : members) {
                HttpResponse<String> r = get(http, m, path, Map.of());
                assertThat(r.body()).isEqualTo(body);
                if (!m.clusterAddress().equals(owner) && r.headers().firstValue("X-Ketama-Cache").orElse("").equals("NEAR")) {
                    near.add(m.clusterAddress());
                }
            }
        }
    }

    private static void everyMemberServes(LoopbackHttp http, List<JarMember> members, String path, String body) throws Exception {
        for (JarMember m : members) {
            HttpResponse<String> r = get(http, m, path, Map.of());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).as("%s on %s (%s)", path, m.name(), r.headers().firstValue("X-Ketama-Cache").orElse("?"))
                    .isEqualTo(body);
        }
    }

    private static JsonNode purge(LoopbackHttp http, JarMember m, String body, int status) throws Exception {
        return purge(http, m, body, status, "Bearer " + TOKEN);
    }

    private static JsonNode purge(LoopbackHttp http, JarMember m, String body, int status, String authorization) throws Exception {
        HttpResponse<String> r = send(http, m.management() + "/q/ketama/purge", "POST", authorization, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        return JSON.readTree(r.body());
    }

    private static HttpResponse<String> send(LoopbackHttp http, String url, String method, String authorization, String body)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return http.client().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(LoopbackHttp http, JarMember m, String path, Map<String, String> fields) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(m.http() + path)).timeout(Duration.ofSeconds(10)).GET();
        fields.forEach(b::header);
        return http.client().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** The owner of the key a {@code GET} of {@code path} at the root has. */
    private static String owner(LoopbackHttp http, JarMember m, String path) {
        try {
            HttpResponse<String> r = http.client().send(HttpRequest.newBuilder(URI.create(m.http() + "/route/" + path))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as("GET /route/%s on %s: %s", path, m.name(), r.body()).isEqualTo(200);
            return JSON.readTree(r.body()).path("owner").path("address").asText();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
