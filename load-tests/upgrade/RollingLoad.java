import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The load of a rolling upgrade, run with the JDK's source launcher (java RollingLoad.java ...):
 * clients that act like a load balancer in front of the members. The members are listed, one
 * "httpPort" per line, in a file the upgrade script may rewrite; each listed member's
 * /q/health/ready is probed every 100 ms by a thread of its own, and requests go only to those whose
 * last probe answered 200 (a member that begins a graceful stop turns not-ready first). Each client sends GET /cache/key
 * to them in turn, keys from a fixed set, and counts every answer that is not a 200 and every request
 * that got no answer at all (a failure), and answers that say the cluster failed over
 * (X-Ketama-Failover) or went to the origin directly (X-Ketama-Cache: BYPASS).
 *
 * Arguments: members-file stop-file out-file clients keys. It runs until stop-file exists, then
 * writes its counts to out-file (key=value lines) and prints a line every 5 s meanwhile.
 * Every address is 127.0.0.1; every request has a 10 s time limit.
 */
public class RollingLoad {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    static final Set<Integer> inService = ConcurrentHashMap.newKeySet();
    static final AtomicLong requests = new AtomicLong();
    static final AtomicLong ok = new AtomicLong();
    static final AtomicLong failovers = new AtomicLong();
    static final AtomicLong bypasses = new AtomicLong();
    static final List<String> failures = new CopyOnWriteArrayList<>();
    static final Map<String, AtomicLong> servedBy = new ConcurrentHashMap<>();
    static volatile long slowestNanos;

    public static void main(String[] args) throws Exception {
        Path membersFile = Path.of(args[0]);
        Path stopFile = Path.of(args[1]);
        Path outFile = Path.of(args[2]);
        int clients = Integer.parseInt(args[3]);
        int keys = Integer.parseInt(args[4]);
        List<Thread> threads = new ArrayList<>();
        // the balancer: the list of members read every 100 ms, each listed member probed by a thread of its
        // own every 100 ms, so a slow probe of one member never delays taking another out of service
        Map<Integer, Thread> probers = new ConcurrentHashMap<>();
        Thread balancer = new Thread(() -> {
            while (!Files.exists(stopFile)) {
                List<Integer> listed = new ArrayList<>();
                try {
                    for (String line : Files.readAllLines(membersFile)) {
                        if (!line.isBlank()) {
                            listed.add(Integer.parseInt(line.trim()));
                        }
                    }
                } catch (IOException | NumberFormatException e) {
                    sleep(20); // being rewritten: keep the last view
                    continue;
                }
                for (int port : listed) {
                    probers.computeIfAbsent(port, p -> {
                        Thread prober = new Thread(() -> {
                            while (!Files.exists(stopFile)) {
                                if (ready(p)) {
                                    inService.add(p);
                                } else {
                                    inService.remove(p);
                                }
                                sleep(100);
                            }
                        }, "probe-" + p);
                        prober.setDaemon(true);
                        prober.start();
                        return prober;
                    });
                }
                inService.retainAll(listed);
                sleep(100);
            }
        }, "balancer");
        balancer.start();
        for (int c = 0; c < clients; c++) {
            int client = c;
            Thread t = new Thread(() -> {
                long n = client;
                while (!Files.exists(stopFile)) {
                    List<Integer> serving = new ArrayList<>(inService);
                    if (serving.isEmpty()) {
                        sleep(10);
                        continue;
                    }
                    int port = serving.get((int) (n % serving.size()));
                    String key = "upgrade-" + ((n * 7919) % keys);
                    n++;
                    send(port, key);
                }
            }, "client-" + c);
            threads.add(t);
            t.start();
        }
        Instant start = Instant.now();
        long last = 0;
        while (!Files.exists(stopFile)) {
            sleep(5000);
            long now = requests.get();
            System.out.printf("%s +%ds: %d requests (%d/s), %d failed, %d failovers, %d bypasses, in service %s%n",
                    Instant.now(), Duration.between(start, Instant.now()).toSeconds(), now, (now - last) / 5, failures.size(),
                    failovers.get(), bypasses.get(), new java.util.TreeSet<>(inService));
            last = now;
        }
        for (Thread t : threads) {
            t.join(15_000);
        }
        balancer.join(5_000);
        StringBuilder out = new StringBuilder();
        out.append("requests=").append(requests.get()).append('\n')
                .append("ok=").append(ok.get()).append('\n')
                .append("failed=").append(failures.size()).append('\n')
                .append("failovers=").append(failovers.get()).append('\n')
                .append("bypasses=").append(bypasses.get()).append('\n')
                .append("slowest_ms=").append(slowestNanos / 1_000_000).append('\n')
                .append("seconds=").append(Duration.between(start, Instant.now()).toSeconds()).append('\n');
        new TreeMap<>(servedBy).forEach((m, c) -> out.append("served_by.").append(m).append('=').append(c.get()).append('\n'));
        for (int i = 0; i < Math.min(20, failures.size()); i++) {
            out.append("failure.").append(i).append('=').append(failures.get(i).replace('\n', ' ')).append('\n');
        }
        Files.writeString(outFile, out);
        System.out.print(out);
    }

    static boolean ready(int port) {
        try {
            HttpResponse<Void> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health/ready"))
                    .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.discarding());
            return r.statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static void send(int port, String key) {
        long t0 = System.nanoTime();
        requests.incrementAndGet();
        try {
            HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/cache/" + key))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200) {
                failures.add(Instant.now() + " " + port + " " + key + ": " + r.statusCode() + " " + new String(r.body()));
            } else {
                ok.incrementAndGet();
                r.headers().firstValue("X-Ketama-Failover").ifPresent(v -> failovers.incrementAndGet());
                if (r.headers().firstValue("X-Ketama-Cache").filter("BYPASS"::equals).isPresent()) {
                    bypasses.incrementAndGet();
                }
                servedBy.computeIfAbsent(r.headers().firstValue("X-Ketama-Served-By").orElse("?"), k -> new AtomicLong())
                        .incrementAndGet();
            }
        } catch (IOException e) {
            failures.add(Instant.now() + " " + port + " " + key + ": no answer: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        slowestNanos = Math.max(slowestNanos, System.nanoTime() - t0);
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
