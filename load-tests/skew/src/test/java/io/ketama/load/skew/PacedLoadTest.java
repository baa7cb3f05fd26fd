package io.ketama.load.skew;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The load against real HTTP servers on loopback (the JDK's), counting what they answered. */
class PacedLoadTest {

    private final List<HttpServer> servers = new ArrayList<>();
    private final CountDownLatch never = new CountDownLatch(1);

    /** A server answering {@code GET /k/<rank>} with its name in X-Ketama-Served-By; rank 7 never answered. */
    private InetSocketAddress server(String name, Map<String, AtomicInteger> seen) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        // a thread per request under way: the requests held back must not hold up the others
        s.setExecutor(Executors.newCachedThreadPool());
        s.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            seen.computeIfAbsent(name + " " + path, k -> new AtomicInteger()).incrementAndGet();
            if (path.equals("/k/7")) {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] body = ("body of " + path).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("X-Ketama-Served-By", name);
            exchange.getResponseHeaders().add("X-Ketama-Owner", path.equals("/k/1") ? "elsewhere" : name);
            exchange.getResponseHeaders().add("X-Ketama-Cache", "HIT");
            exchange.sendResponseHeaders(path.equals("/k/2") ? 503 : 200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        s.start();
        servers.add(s);
        return s.getAddress();
    }

    @AfterEach
    void stop() {
        never.countDown();
        servers.forEach(s -> s.stop(0));
    }

    @Test
    void everyTargetTakesItsShareAndEveryAnswerIsCounted() throws Exception {
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        List<InetSocketAddress> targets = List.of(server("a", seen), server("b", seen));
        Tally warm = new Tally(Map.of("a", "member-a"), System.nanoTime());
        Tally measured = new Tally(Map.of("a", "member-a"), System.nanoTime());
        int[] hooks = new int[2];
        // the sequential mix asks 0, 1, 2, ... ; 7 keys, 200 req/s: 0.5 s of warm-up (100), then 1 s (200)
        try (PacedLoad load = new PacedLoad(targets, "/k/", 7, KeyMix.parse("sequential"), 200, Duration.ofSeconds(1), 1, 4)) {
            load.run(Duration.ofMillis(500), Duration.ofSeconds(1), warm, measured, new PacedLoad.Hooks() {
                @Override
                public void measureStarted() {
                    hooks[0]++;
                }

                @Override
                public void measureEnded() {
                    hooks[1]++;
                }
            });
        }
        assertThat(hooks).containsExactly(1, 1);
        assertThat(warm.ok() + warm.failed()).isEqualTo(100);
        assertThat(measured.ok() + measured.failed()).isEqualTo(200);
        // request i asks key i mod 7 of target i mod 2; keys 2 (503) and 7 (never asked: only 0..6) apart
        long twos = 0;
        for (int i = 100; i < 300; i++) {
            twos += i % 7 == 2 ? 1 : 0;
        }
        assertThat(measured.failures()).containsEntry(Tally.Failure.STATUS, twos);
        assertThat(measured.statuses()).containsEntry(503, twos);
        long served = measured.servedBy().values().stream().mapToLong(Long::longValue).sum();
        assertThat(served).isEqualTo(200 - twos);
        assertThat(measured.servedBy().keySet()).containsExactlyInAnyOrder("member-a", "b");
        assertThat(measured.servedBy().get("member-a") + measured.servedBy().get("b")).isEqualTo(200 - twos);
        // every 2xx of key 1 was off its owner
        long ones = 0;
        for (int i = 100; i < 300; i++) {
            ones += i % 7 == 1 ? 1 : 0;
        }
        assertThat(measured.offOwnerBy().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(ones);
        int aCount = seen.entrySet().stream().filter(e -> e.getKey().startsWith("a ")).mapToInt(e -> e.getValue().get()).sum();
        int bCount = seen.entrySet().stream().filter(e -> e.getKey().startsWith("b ")).mapToInt(e -> e.getValue().get()).sum();
        assertThat(aCount).isEqualTo(150);
        assertThat(bCount).isEqualTo(150);
    }

    @Test
    void aRequestNeverAnsweredIsATimeoutAndTheRestGoOn() throws Exception {
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        List<InetSocketAddress> targets = List.of(server("a", seen));
        Tally warm = new Tally(Map.of(), System.nanoTime());
        Tally measured = new Tally(Map.of(), System.nanoTime());
        // keys 0..7 in order at 40 req/s for 1 s: 40 requests, key 7 (5 of them) never answered
        try (PacedLoad load = new PacedLoad(targets, "/k/", 8, KeyMix.parse("sequential"), 40, Duration.ofSeconds(1), 1, 16)) {
            load.run(Duration.ZERO, Duration.ofSeconds(1), warm, measured, new PacedLoad.Hooks() {
                @Override
                public void measureStarted() {
                }

                @Override
                public void measureEnded() {
                }
            });
        }
        assertThat(measured.failures()).containsEntry(Tally.Failure.TIMEOUT, 5L);
        assertThat(measured.ok()).isEqualTo(40 - 5 - 5);
    }

    @Test
    void aDeadTargetFailsItsRequestsWithoutStoppingTheOthers() throws Exception {
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        InetSocketAddress live = server("a", seen);
        HttpServer gone = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
        InetSocketAddress dead = gone.getAddress();
        gone.stop(0);
        Tally measured = new Tally(Map.of(), System.nanoTime());
        try (PacedLoad load = new PacedLoad(List.of(live, dead), "/k/", 1, KeyMix.parse("uniform"), 100, Duration.ofSeconds(1), 1, 4)) {
            load.run(Duration.ZERO, Duration.ofMillis(500), new Tally(Map.of(), 0), measured, new PacedLoad.Hooks() {
                @Override
                public void measureStarted() {
                }

                @Override
                public void measureEnded() {
                }
            });
        }
        assertThat(measured.ok()).isEqualTo(25);
        assertThat(measured.failed()).isEqualTo(25);
    }

    @Test
    void onlyLoopbackTargetsAreTaken() {
        assertThatThrownBy(() -> new PacedLoad(List.of(new InetSocketAddress("192.0.2.1", 80)), "/", 1, KeyMix.parse("uniform"), 1,
                Duration.ofSeconds(1), 1, 1)).hasMessageContaining("not a loopback address");
        assertThatThrownBy(() -> SkewBench.targets(List.of("10.0.0.1:80"))).hasMessageContaining("not a loopback host:port");
        assertThat(SkewBench.targets(List.of("127.0.0.1:80", "localhost:81"))).hasSize(2);
    }
}
