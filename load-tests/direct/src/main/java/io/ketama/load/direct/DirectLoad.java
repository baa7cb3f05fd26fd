package io.ketama.load.direct;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.client.DirectAnswer;
import io.ketama.client.DirectClient;
import io.ketama.core.HashStyle;
import io.ketama.quarkus.runtime.ClientFollower;
import io.ketama.quarkus.runtime.RingSettings;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One closed-loop load run of issue 39, point 4, printed as one line for throughput.sh's {@code direct}
 * step: {@code --threads} threads each send {@code GET} of a uniformly random key out of {@code --keys}
 * for {@code --warm} seconds (not counted), then {@code --seconds} measured, in one of three ways:
 * <ul>
 *   <li>{@code members}: to every member alike (request i of a thread to member i mod N), so (N-1)/N of
 *       the keys are forwarded member to member;</li>
 *   <li>{@code direct}: through {@link DirectClient}, the rings followed through a Hazelcast client
 *       ({@link ClientFollower}), each key to its owner;</li>
 *   <li>{@code url}: to one URL prefix (nginx's consistent-hash router in front of its owners).</li>
 * </ul>
 * Over the measured window it reads the CPU time of the serving processes ({@code --pids}, from
 * {@code /proc/<pid>/stat}), its own (the generator's, the direct client's routing included), and the
 * whole machine's, and prints answers per second, p50/p99 and CPU per answer.
 */
public final class DirectLoad {

    private DirectLoad() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = parse(args);
        String mode = need(a, "mode");
        int threads = Integer.parseInt(a.getOrDefault("threads", "32"));
        int keys = Integer.parseInt(a.getOrDefault("keys", "100000"));
        int warm = Integer.parseInt(a.getOrDefault("warm", "10"));
        int seconds = Integer.parseInt(a.getOrDefault("seconds", "20"));
        long clkTck = Long.parseLong(a.getOrDefault("clk-tck", "100"));
        List<Long> pids = new ArrayList<>();
        for (String p : a.getOrDefault("pids", "").split(",")) {
            if (!p.isBlank()) {
                pids.add(Long.parseLong(p.trim()));
            }
        }
        List<AutoCloseable> close = new ArrayList<>();
        if (mode.equals("agree")) {
            try {
                agree(follow(need(a, "hz").split(","), need(a, "cluster"), close), need(a, "member"), keys);
            } finally {
                for (AutoCloseable c : close) {
                    c.close();
                }
            }
            return;
        }
        Sender sender = switch (mode) {
            case "members" -> members(need(a, "targets").split(","), a.getOrDefault("prefix", "/cache/"));
            case "url" -> url(need(a, "prefix"));
            case "direct" -> direct(need(a, "hz").split(","), need(a, "cluster"), close);
            default -> throw new IllegalArgumentException("--mode must be members, direct or url, was " + mode);
        };
        try {
            run(mode, sender, threads, keys, warm, seconds, pids, clkTck);
        } finally {
            for (AutoCloseable c : close) {
                c.close();
            }
        }
    }

    /** Sends one request for {@code key} (e.g. {@code k/17}); whether it was answered 200. */
    @FunctionalInterface
    interface Sender {
        boolean send(String key, int sequence) throws IOException, InterruptedException;
    }

    private static HttpClient http() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
    }

    private static Sender members(String[] targets, String prefix) {
        HttpClient http = http();
        String[] bases = Arrays.stream(targets).map(t -> "http://" + t.trim() + prefix).toArray(String[]::new);
        return (key, sequence) -> ok(http, bases[Math.floorMod(sequence, bases.length)] + key);
    }

    private static Sender url(String prefix) {
        HttpClient http = http();
        return (key, sequence) -> ok(http, prefix + key);
    }

    private static boolean ok(HttpClient http, String url) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).GET().build();
        return http.send(request, HttpResponse.BodyHandlers.ofByteArray()).statusCode() == 200;
    }

    private static Sender direct(String[] hz, String cluster, List<AutoCloseable> close) {
        DirectClient direct = new DirectClient(follow(hz, cluster, close));
        close.add(0, () -> System.err.println("direct client: " + direct.counts()));
        return (key, sequence) -> {
            DirectAnswer answer = direct.get(key);
            return answer.status() == 200;
        };
    }

    /**
     * The agreement check: for each line {@code check LABEL} on standard input, waits
     * {@link ClientFollower#BOUND}, then compares the ring version and owner of keys {@code k/1} to
     * {@code k/keys} on this client's rings with {@code GET /route/k/N} of the member at {@code memberHttp},
     * and prints {@code agree label=LABEL keys=N mismatched=M first=...}.
     */
    private static void agree(io.ketama.quarkus.RingSelector rings, String memberHttp, int keys) throws IOException, InterruptedException {
        HttpClient http = http();
        java.util.regex.Pattern ring = java.util.regex.Pattern.compile("\"ring\":\"([^\"]+)\"");
        java.util.regex.Pattern owner = java.util.regex.Pattern.compile("\"owner\":\\{[^}]*\"address\":\"([^\"]+)\"");
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in, java.nio.charset.StandardCharsets.UTF_8));
        System.out.println("agree ready members=" + rings.snapshot().members().size());
        System.out.flush();
        for (String line; (line = in.readLine()) != null; ) {
            if (!line.startsWith("check ")) {
                continue;
            }
            String label = line.substring("check ".length()).trim();
            Thread.sleep(ClientFollower.BOUND.toMillis());
            long started = System.nanoTime();
            int mismatched = 0;
            String first = "-";
            for (int i = 1; i <= keys; i++) {
                String key = "k/" + i;
                io.ketama.quarkus.Selection mine = rings.select(key);
                HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + memberHttp + "/route/" + key)).timeout(Duration.ofSeconds(5))
                        .GET().build();
                String body = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
                java.util.regex.Matcher r = ring.matcher(body);
                java.util.regex.Matcher o = owner.matcher(body);
                String theirs = (r.find() ? r.group(1) : "?") + " " + (o.find() ? o.group(1) : "?");
                String ours = mine.version().label() + " " + io.ketama.quarkus.MemberAddress.of(mine.owner());
                if (!theirs.equals(ours)) {
                    if (mismatched++ == 0) {
                        first = key + ":client(" + ours + ")member(" + theirs + ")";
                    }
                }
            }
            System.out.printf(Locale.ROOT, "agree label=%s keys=%d mismatched=%d members=%d generation=%d took_ms=%d first=%s%n", label, keys,
                    mismatched, rings.snapshot().members().size(), rings.migration().generation(),
                    (System.nanoTime() - started) / 1_000_000, first.replace(' ', '_'));
            System.out.flush();
        }
    }

    /** A Hazelcast client of {@code cluster} and the rings it follows, once they hold every member at {@code hz}. */
    private static io.ketama.quarkus.RingSelector follow(String[] hz, String cluster, List<AutoCloseable> close) {
        ClientConfig config = new ClientConfig();
        config.setClusterName(cluster);
        for (String address : hz) {
            config.getNetworkConfig().addAddress(address.trim());
        }
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.logging.type", "none");
        HazelcastInstance client = HazelcastClient.newHazelcastClient(config);
        close.add(0, client::shutdown);
        ClientFollower follower = ClientFollower.follow(client, new RingSettings(HashStyle.PINGORA, 16)); // the service's defaults
        close.add(0, follower);
        long end = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (follower.selector().snapshot().members().size() < hz.length) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException("the client's rings hold " + follower.selector().snapshot().members().size() + " of "
                        + hz.length + " members after 30 s");
            }
            sleep(50);
        }
        return follower.selector();
    }

    private static void run(String mode, Sender sender, int threads, int keys, int warm, int seconds, List<Long> pids, long clkTck)
            throws InterruptedException {
        AtomicLong phase = new AtomicLong(); // 0 warm, 1 measured, 2 over
        long[][] latencies = new long[threads][];
        int[] counts = new int[threads];
        long[] errors = new long[threads];
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int id = t;
            workers[t] = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(39L * 1_000 + id);
                long[] mine = new long[1 << 16];
                int n = 0;
                int sequence = id;
                long failed = 0;
                while (true) {
                    long p = phase.get();
                    if (p == 2) {
                        break;
                    }
                    String key = "k/" + (1 + random.nextInt(keys));
                    long start = System.nanoTime();
                    boolean ok;
                    try {
                        ok = sender.send(key, sequence++);
                    } catch (IOException | RuntimeException e) {
                        ok = false;
                    } catch (InterruptedException e) {
                        return;
                    }
                    long took = System.nanoTime() - start;
                    if (p == 1 && phase.get() == 1) {
                        if (!ok) {
                            failed++;
                        }
                        if (n == mine.length) {
                            mine = Arrays.copyOf(mine, n * 2);
                        }
                        mine[n++] = took;
                    }
                }
                latencies[id] = mine;
                counts[id] = n;
                errors[id] = failed;
            }, "load-" + t);
            workers[t].start();
        }
        sleep(warm * 1_000L);
        long setup0 = ticks(pids);
        long machine0 = machineTicks();
        long self0 = selfCpuNanos();
        long t0 = System.nanoTime();
        phase.set(1);
        sleep(seconds * 1_000L);
        phase.set(2);
        long t1 = System.nanoTime();
        long setup1 = ticks(pids);
        long machine1 = machineTicks();
        long self1 = selfCpuNanos();
        for (Thread w : workers) {
            w.join(15_000);
        }
        int total = 0;
        long failed = 0;
        for (int t = 0; t < threads; t++) {
            total += counts[t];
            failed += errors[t];
        }
        long[] all = new long[total];
        int at = 0;
        for (int t = 0; t < threads; t++) {
            System.arraycopy(latencies[t], 0, all, at, counts[t]);
            at += counts[t];
        }
        Arrays.sort(all);
        double wall = (t1 - t0) / 1e9;
        double setupSeconds = (setup1 - setup0) / (double) clkTck;
        double selfSeconds = (self1 - self0) / 1e9;
        double machineSeconds = (machine1 - machine0) / (double) clkTck;
        System.out.printf(Locale.ROOT, "direct-load mode=%s threads=%d requests=%d errors=%d seconds=%.2f rps=%.0f p50_us=%d p99_us=%d "
                        + "setup_cpu_us=%.1f generator_cpu_us=%.1f generator_cores=%.2f other_cores=%.2f%n",
                mode, threads, total, failed, wall, total / wall, rank(all, 50) / 1_000, rank(all, 99) / 1_000,
                total == 0 ? 0 : setupSeconds * 1e6 / total, total == 0 ? 0 : selfSeconds * 1e6 / total, selfSeconds / wall,
                Math.max(0, machineSeconds - setupSeconds - selfSeconds) / wall);
    }

    private static long rank(long[] sorted, double p) {
        if (sorted.length == 0) {
            return -1;
        }
        int r = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(r, 1) - 1];
    }

    /** utime + stime of {@code pids} in clock ticks; a PID that is gone counts 0. */
    private static long ticks(List<Long> pids) {
        long sum = 0;
        for (long pid : pids) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                sum += Long.parseLong(f[11]) + Long.parseLong(f[12]); // fields 14 and 15 of stat(5)
            } catch (IOException | RuntimeException e) {
                // gone
            }
        }
        return sum;
    }

    /** Busy ticks of every CPU (user nice system irq softirq steal). */
    private static long machineTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            return Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6]) + Long.parseLong(f[7])
                    + Long.parseLong(f[8]);
        } catch (IOException e) {
            return 0;
        }
    }

    private static long selfCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> out = new HashMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                throw new IllegalArgumentException("arguments are --name=value, was " + arg);
            }
            out.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
        }
        return out;
    }

    private static String need(Map<String, String> a, String name) {
        String v = a.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("--" + name + "= is required");
        }
        return v;
    }
}
