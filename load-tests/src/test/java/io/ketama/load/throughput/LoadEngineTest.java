package io.ketama.load.throughput;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The generator against real HTTP servers on 127.0.0.1 (the JDK's own). */
class LoadEngineTest {

    private static final ProcCpu NO_CPU = new ProcCpu(List.of(), 100);
    private final List<HttpServer> servers = new java.util.ArrayList<>();

    @AfterEach
    void stopServers() {
        servers.forEach(s -> s.stop(0));
    }

    /** A server answering {@code status} (503 for odd keys when asked) after {@code delayMillis}, counting paths. */
    private InetSocketAddress server(int delayMillis, boolean oddKeysUnavailable, Map<String, AtomicLong> paths) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        byte[] body = new byte[1024];
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getRawPath();
            paths.computeIfAbsent(path, p -> new AtomicLong()).incrementAndGet();
            if (delayMillis > 0) {
                try {
                    Thread.sleep(delayMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            int key = Integer.parseInt(path.substring(path.lastIndexOf('/') + 1));
            int status = oddKeysUnavailable && key % 2 == 1 ? 503 : 200;
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        servers.add(server);
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getAddress().getPort());
    }

    @Test
    void anOpenPhaseSendsExactlyItsScheduleDealtToTheTargetsInTurn() throws IOException {
        Map<String, AtomicLong> a = new ConcurrentHashMap<>();
        Map<String, AtomicLong> b = new ConcurrentHashMap<>();
        try (LoadEngine engine = new LoadEngine(List.of(server(0, false, a), server(0, false, b)), 4, "/cache/k/", 1000,
                Duration.ofSeconds(10), 7, NO_CPU, NO_CPU)) {
            engine.awaitConnected(Duration.ofSeconds(30));
            PhaseResult r = engine.run(Phase.open("half", 400, Duration.ofSeconds(1)));
            assertThat(r.scheduled()).isEqualTo(400);
            assertThat(r.ok()).isEqualTo(400);
            assertThat(r.statuses()).containsExactly(Map.entry(200, 400L));
            assertThat(r.timeouts() + r.socketErrors()).isZero();
            assertThat(r.goodput()).as("answers that came after the phase are not goodput").isLessThanOrEqualTo(400.0);
            assertThat(a.values().stream().mapToLong(AtomicLong::get).sum()).isEqualTo(200);
            assertThat(b.values().stream().mapToLong(AtomicLong::get).sum()).isEqualTo(200);
            assertThat(a.keySet()).allMatch(p -> p.matches("/cache/k/\\d{1,3}"));
            assertThat(r.line()).startsWith("phase=half mode=open offered=400/s").contains("ok=400", "statuses=200:400");
        }
    }

    @Test
    void latencyCountsFromTheIntendedTimeWhenTheServerFallsBehind() throws IOException {
        // one connection to a server taking 50 ms per answer: 20/s at most, offered 40/s for a second
        try (LoadEngine engine = new LoadEngine(List.of(server(50, false, new ConcurrentHashMap<>())), 1, "/k/", 10,
                Duration.ofSeconds(20), 1, NO_CPU, NO_CPU)) {
            engine.awaitConnected(Duration.ofSeconds(30));
            PhaseResult r = engine.run(Phase.open("double", 40, Duration.ofSeconds(1)));
            assertThat(r.ok()).isEqualTo(40);
            assertThat(r.okInPhase()).as("answered within the one second").isLessThanOrEqualTo(20);
            // the last request is due at 0.975 s and cannot be answered before 40 x 50 ms = 2 s
            assertThat(r.okLatencies().max()).isGreaterThan(Duration.ofMillis(900).toNanos());
            assertThat(r.sendLag().percentile(99)).as("requests queued for the one connection")
                    .isGreaterThan(Duration.ofMillis(500).toNanos());
        }
    }

    @Test
    void aClosedPhaseKeepsItsRequestsInFlightAndCountsEveryStatus() throws IOException {
        try (LoadEngine engine = new LoadEngine(List.of(server(1, true, new ConcurrentHashMap<>())), 8, "/k/", 100,
                Duration.ofSeconds(10), 3, NO_CPU, NO_CPU)) {
            engine.awaitConnected(Duration.ofSeconds(30));
            PhaseResult r = engine.run(Phase.closed("peak", 4, Duration.ofSeconds(1)));
            assertThat(r.scheduled()).isPositive().isEqualTo(r.answered());
            assertThat(r.statuses()).containsOnlyKeys(200, 503);
            assertThat(r.ok()).isEqualTo(r.statuses().get(200));
            assertThat(r.failed()).isEqualTo(r.statuses().get(503));
        }
    }

    @Test
    void requestsPastTheirDeadlineAreTimeoutsWhetherSentOrWaiting() throws IOException {
        // a listening socket that accepts nothing: connections complete in the kernel's backlog, no answer ever comes
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             LoadEngine engine = new LoadEngine(List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), silent.getLocalPort())),
                     2, "/k/", 10, Duration.ofMillis(300), 1, NO_CPU, NO_CPU)) {
            engine.awaitConnected(Duration.ofSeconds(30));
            PhaseResult r = engine.run(Phase.open("double", 20, Duration.ofMillis(500)));
            assertThat(r.scheduled()).isEqualTo(10);
            assertThat(r.ok()).isZero();
            assertThat(r.timeouts()).isEqualTo(10);
            assertThat(r.okLatencies().percentile(99)).isEqualTo(-1);
        }
    }

    @Test
    void onlyLoopbackTargets() {
        assertThatThrownBy(() -> Overload.Args.targets("192.0.2.1:80")).hasMessageContaining("not a loopback address");
        assertThat(Overload.Args.targets("127.0.0.1:1,localhost:2")).hasSize(2);
    }

    @Test
    void phasesAndSettingsRefuseNonsenseNamingTheOption() {
        assertThatThrownBy(() -> Phase.open("x", 0, Duration.ofSeconds(1))).hasMessageContaining("exactly one of rate");
        assertThatThrownBy(() -> Overload.Settings.of(new String[] {"--targets=127.0.0.1:1", "--peak=0"}))
                .hasMessageContaining("--peak=0 is out of range [1, 600]");
        assertThatThrownBy(() -> Overload.Settings.of(new String[] {"--target=127.0.0.1:1"}))
                .hasMessageContaining("unknown option --target");
        assertThatThrownBy(() -> Overload.Settings.of(new String[] {"--targets=127.0.0.1:1", "--connections=8"}))
                .hasMessageContaining("--connections (8) must be at least --concurrency (32) and --peak-concurrency (256)");
        assertThat(LoadEngine.spread(32, 3)).containsExactly(11, 11, 10);
    }

    @Test
    void theRouteAnswerNamesTheOwner() {
        assertThat(Warm.owner("{\"key\":\"k/1\",\"keyBytes\":3,\"ring\":\"v1\",\"features\":[],\"owner\":{\"address\":\"127.0.0.1:19702\","
                + "\"uuid\":\"u\",\"local\":false},\"candidates\":[]}")).isEqualTo("127.0.0.1:19702");
        assertThat(Warm.owner("{}")).isNull();
    }
}
