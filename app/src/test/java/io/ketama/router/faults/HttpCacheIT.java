package io.ketama.router.faults;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The packaged service as a shared HTTP cache across three {@code java -jar} members on 127.0.0.1,
 * with their defaults (but {@code bounded-load.min-rate} 0, as {@link HotSpillIT}, so a test's load
 * makes an owner spill), in front of a real HTTP origin in this JVM, clients entering on every member:
 * <ul>
 *   <li>an answer marked {@code private} for one client, asked for on each member by three clients
 *       each with their own cookie, reaches each client alone: every request goes to the origin and
 *       no client is ever served another's body;</li>
 *   <li>{@code max-age} holds for every copy of an answer: under load entering on every member, with
 *       the owner of most keys spilling them to their next candidates and a hot key kept near on the
 *       entries that do not own it, once the origin's answers change, no answer older than their
 *       {@code max-age} (2 s) is served, whether by the owner, a spill candidate or a near copy.</li>
 * </ul>
 */
class HttpCacheIT {

    private static final String TOKEN = "http-cache-it-" + UUID.randomUUID();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> PROBE = List.of("http-cache-probe-0", "http-cache-probe-1", "http-cache-probe-2");
    private static final int WARM_KEYS = 200;
    private static final long MAX_AGE_MILLIS = 2_000;
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
     * The origin: {@code /origin/private-*} answers {@code private, max-age=600} with a body naming the
     * request's cookie; {@code /origin/fresh-*} answers {@code max-age=2} with the current version.
     */
    private static final class Origin {
        final AtomicInteger version = new AtomicInteger(1);
        final Map<String, LongAdder> requests = new ConcurrentHashMap<>();

        void handle(HttpExchange exchange) throws IOException {
            String name = exchange.getRequestURI().getRawPath().substring("/origin/".length());
            requests.computeIfAbsent(name, n -> new LongAdder()).increment();
            String body;
            if (name.startsWith("private-")) {
                exchange.getResponseHeaders().add("Cache-Control", "private, max-age=600");
                body = "for " + exchange.getRequestHeaders().getFirst("Cookie");
            } else {
                exchange.getResponseHeaders().add("Cache-Control", "max-age=" + MAX_AGE_MILLIS / 1000);
                body = name + " version " + version.get();
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
    void privateAnswersReachTheirOwnClientAloneAndMaxAgeHoldsOnEveryCopy() throws Exception {
        assertThat(JarMember.JAR).as("the packaged application (mvn package)").exists();
        Origin origin = new Origin();
        originServer = HttpServer.create(new InetSocketAddress("127.0.0.1", FreePorts.take()), 64);
        originServer.createContext("/origin/", origin::handle);
        originServer.setExecutor(Executors.newFixedThreadPool(8));
        originServer.start();
        String baseUrl = "http://127.0.0.1:" + originServer.getAddress().getPort() + "/origin";

        List<JarMember> members = JarMember.startLoopback("http-cache-it", 3, List.of("-Dketama.router.origin.base-url=" + baseUrl,
                "-Dketama.router.bounded-load.min-rate=0", "-Dketama.router.bounded-load.window=200ms"), TOKEN, STARTED);
        LoopbackHttp http = new LoopbackHttp();
        Set<String> all = members.stream().map(JarMember::clusterAddress).collect(Collectors.toCollection(TreeSet::new));
        Settle.within(() -> MemberState.readAll(http, members, PROBE), s -> MemberState.agree(s, all), Duration.ofSeconds(2),
                Duration.ofSeconds(120), "three members on every ring, agreeing");

        // private: three clients with their own session on every member, each asking twice
        for (JarMember entry : members) {
            for (int client = 0; client < 3; client++) {
                for (int twice = 0; twice < 2; twice++) {
                    HttpResponse<String> r = get(http, entry, "/private-1", "session=" + entry.name() + "-" + client);
                    assertThat(r.statusCode()).isEqualTo(200);
                    assertThat(r.body()).as("the private answer %s got on %s", r.headers().map(), entry.name())
                            .isEqualTo("for session=" + entry.name() + "-" + client);
                    assertThat(r.headers().firstValue("X-Ketama-Cache")).hasValue("MISS");
                }
            }
        }
        assertThat(origin.requests.get("private-1").sum()).as("every request of a private answer reaches the origin").isEqualTo(18);

        // max-age on every copy: most keys owned by member 0 (it spills them), one hot key owned by member 1
        JarMember loaded = members.get(0);
        List<String> warm = new ArrayList<>();
        String hot = null;
        for (int n = 0; warm.size() < WARM_KEYS || hot == null; n++) {
            String path = "/fresh-" + n;
            String owner = owner(http, loaded, path);
            if (owner.equals(loaded.clusterAddress())) {
                warm.add(path);
            } else if (hot == null && owner.equals(members.get(1).clusterAddress())) {
                hot = path;
            }
        }
        try (Load load = new Load(http, members, hot, warm)) {
            load.awaitRequests(3_000, Duration.ofSeconds(60)); // caches filled, spills and near copies under way
            long changed = System.currentTimeMillis();
            origin.version.set(2);
            load.checkFrom(changed + MAX_AGE_MILLIS + 500); // every request sent from then on must see version 2
            load.awaitChecked(3_000, Duration.ofSeconds(60));
            Tally t = load.tally;
            System.out.printf("HttpCacheIT, max-age across copies: %s%n", t);
            assertThat(t.failed).as("failed requests").isEmpty();
            assertThat(t.stale).as("answers older than their max-age, sent %d ms or more after the origin changed",
                    MAX_AGE_MILLIS + 500).isEmpty();
            assertThat(t.checkedSpilled.sum()).as("answers a spill candidate served, checked").isPositive();
            assertThat(t.checkedNear.sum()).as("answers a near copy served, checked").isPositive();
            assertThat(t.checkedHits.sum()).as("answers from an owner's store, checked").isPositive();
        }
    }

    private static HttpResponse<String> get(LoopbackHttp http, JarMember m, String path, String cookie) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(m.http() + path)).timeout(Duration.ofSeconds(10)).GET();
        if (cookie != null) {
            b.header("Cookie", cookie);
        }
        return http.client().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The owner of the key a {@code GET} of {@code path} at the root has (the key is the path itself). */
    private static String owner(LoopbackHttp http, JarMember m, String path) throws Exception {
        HttpResponse<String> r = http.client().send(HttpRequest.newBuilder(URI.create(m.http() + "/route/" + path))
                .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET /route/%s on %s: %s", path, m.name(), r.body()).isEqualTo(200);
        return JSON.readTree(r.body()).path("owner").path("address").asText();
    }

    /** What the clients saw. */
    static final class Tally {
        final LongAdder requests = new LongAdder();
        final LongAdder checked = new LongAdder();
        final LongAdder checkedSpilled = new LongAdder();
        final LongAdder checkedNear = new LongAdder();
        final LongAdder checkedHits = new LongAdder();
        final List<String> stale = new CopyOnWriteArrayList<>();
        final List<String> failed = new CopyOnWriteArrayList<>();

        @Override
        public String toString() {
            return requests.sum() + " requests, " + checked.sum() + " checked after the change (" + checkedHits.sum() + " from a store, "
                    + checkedSpilled.sum() + " spilled, " + checkedNear.sum() + " near), " + stale.size() + " stale "
                    + stale.subList(0, Math.min(5, stale.size())) + ", " + failed.size() + " failed "
                    + failed.subList(0, Math.min(5, failed.size()));
        }
    }

    /** Clients entering on every member in turn: one request in four the hot key, the rest the loaded member's keys in turn. */
    static final class Load implements AutoCloseable {
        final Tally tally = new Tally();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private volatile long checkFrom = Long.MAX_VALUE;
        private final List<Thread> threads = new ArrayList<>();

        Load(LoopbackHttp http, List<JarMember> entries, String hot, List<String> warm) {
            AtomicInteger next = new AtomicInteger();
            for (int c = 0; c < 6; c++) {
                Thread t = new Thread(() -> {
                    while (running.get()) {
                        int n = next.getAndIncrement();
                        JarMember entry = entries.get(n % entries.size());
                        String path = n % 4 == 0 ? hot : warm.get((n / 4) % warm.size());
                        long sent = System.currentTimeMillis();
                        try {
                            HttpResponse<String> r = get(http, entry, path, null);
                            tally.requests.increment();
                            if (r.statusCode() != 200) {
                                tally.failed.add(r.statusCode() + " for " + path + " on " + entry.name());
                                continue;
                            }
                            if (sent >= checkFrom) {
                                tally.checked.increment();
                                String cache = r.headers().firstValue("X-Ketama-Cache").orElse("");
                                if (r.headers().firstValue("X-Ketama-Spilled").isPresent()) {
                                    tally.checkedSpilled.increment();
                                }
                                if (cache.equals("NEAR")) {
                                    tally.checkedNear.increment();
                                } else if (cache.equals("HIT")) {
                                    tally.checkedHits.increment();
                                }
                                if (!r.body().endsWith("version 2")) {
                                    tally.stale.add(path + " on " + entry.name() + ": " + cache + " by "
                                            + r.headers().firstValue("X-Ketama-Served-By").orElse("?") + ", age "
                                            + r.headers().firstValue("Age").orElse("-"));
                                }
                            }
                        } catch (Exception e) {
                            tally.failed.add(e + " for " + path + " on " + entry.name());
                        }
                    }
                }, "http-cache-it-client-" + c);
                t.start();
                threads.add(t);
            }
        }

        void checkFrom(long epochMillis) {
            checkFrom = epochMillis;
        }

        void awaitRequests(long n, Duration deadline) throws InterruptedException {
            long end = System.nanoTime() + deadline.toNanos();
            long start = tally.requests.sum();
            while (tally.requests.sum() - start < n && System.nanoTime() < end) {
                Thread.sleep(50);
            }
        }

        void awaitChecked(long n, Duration deadline) throws InterruptedException {
            long end = System.nanoTime() + deadline.toNanos();
            while (tally.checked.sum() < n && System.nanoTime() < end) {
                Thread.sleep(50);
            }
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            for (Thread t : threads) {
                t.join(15_000);
            }
        }
    }
}
