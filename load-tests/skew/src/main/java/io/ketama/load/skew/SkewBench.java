package io.ketama.load.skew;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The skew benchmark's Java side, two commands (load-tests/skew/skew.sh calls them):
 *
 * <pre>
 * java -jar ketama-skew-bench.jar run --setup=service-on --body=1k --mix=zipf-1.1 --keys=20000 --prefix=/cache/s/ \
 *      --targets=127.0.0.1:19100,... --rate=800 --warmup=10 --seconds=30 --members=m0,... --names=127.0.0.1:19701=m0,... \
 *      --cpu=m0=/sys/fs/cgroup/cpuacct/x/m0/cpuacct.usage,... --origin-log=/tmp/origin.log \
 *      --metrics=m0=http://127.0.0.1:19200/q/metrics,... --meters=a,b --out=phase.txt [--mark=started]
 * java -jar ketama-skew-bench.jar report --dir=results --defaults=service-on --off=service-off --factor=1.25 \
 *      --near=NEAR --yardsticks=nginx,haproxy
 * </pre>
 *
 * {@code run} loads one phase ({@link PacedLoad}) and writes its {@link PhaseFigures}; {@code report}
 * reads every {@code *.phase} file of a directory and prints the {@link Report}. A bad option stops
 * it with exit status 2 and a message naming the option.
 */
public final class SkewBench {

    private static final Set<String> RUN_OPTIONS = Set.of("setup", "body", "mix", "keys", "prefix", "targets", "rate", "warmup",
            "seconds", "timeout", "seed", "connections", "members", "names", "cpu", "origin-log", "metrics", "meters", "out", "mark", "idle");
    private static final Set<String> REPORT_OPTIONS = Set.of("dir", "defaults", "off", "factor", "near", "yardsticks");

    private SkewBench() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0 || !(args[0].equals("run") || args[0].equals("report"))) {
            System.err.println("usage: java -jar ketama-skew-bench.jar run|report --name=value ... (see the class javadoc)");
            System.exit(2);
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        try {
            if (args[0].equals("run")) {
                run(new Options(rest, RUN_OPTIONS));
            } else {
                System.out.print(report(new Options(rest, REPORT_OPTIONS)));
            }
        } catch (IllegalArgumentException e) {
            System.err.println("skew-bench: " + e.getMessage());
            System.exit(2);
        }
    }

    static void run(Options o) throws IOException {
        String setup = o.required("setup");
        String body = o.text("body", "1k");
        KeyMix mix = KeyMix.parse(o.required("mix"));
        int keys = (int) o.whole("keys", 20_000, 1, Zipf.MAX_RANKS);
        String prefix = o.text("prefix", "/cache/s/");
        if (!prefix.startsWith("/") || prefix.chars().anyMatch(c -> c <= ' ' || c > '~')) {
            throw new IllegalArgumentException("--prefix must be a path of visible ASCII starting with /, was '" + prefix + "'");
        }
        List<InetSocketAddress> targets = targets(o.list("targets"));
        double rate = o.number("rate", 800, 0, 100_000);
        long warmup = o.whole("warmup", 10, 0, 3600);
        long seconds = o.whole("seconds", 30, 1, 3600);
        long timeout = o.whole("timeout", 5, 1, 600);
        long seed = o.whole("seed", 42, Long.MIN_VALUE, Long.MAX_VALUE);
        int connections = (int) o.whole("connections", 32, 1, 4096);
        List<String> members = o.list("members");
        if (members.isEmpty()) {
            throw new IllegalArgumentException("--members lists the setup's members (or owner servers) in report order");
        }
        Map<String, String> names = o.pairs("names");
        Map<String, Path> cpuFiles = new LinkedHashMap<>();
        o.pairs("cpu").forEach((k, v) -> cpuFiles.put(k, Path.of(v)));
        CgroupCpu cpu = new CgroupCpu(cpuFiles);
        Path originLog = o.text("origin-log", "").isEmpty() ? null : Path.of(o.text("origin-log", ""));
        MemberMetrics metrics = new MemberMetrics(o.pairs("metrics"), o.list("meters"));
        Path out = Path.of(o.required("out"));
        Path mark = o.text("mark", "").isEmpty() ? null : Path.of(o.text("mark", ""));
        Map<String, Long> idle = idlePairs(o.text("idle", ""), "--idle");

        long start = System.nanoTime();
        long[] edges = new long[2];
        long[] fetches = new long[3];
        List<Map<String, Long>> cpuReadings = new ArrayList<>();
        List<Map<String, Double>> meterReadings = new ArrayList<>();
        Tally warmTally = new Tally(names, start);
        Tally[] measureTally = {new Tally(names, start + warmup * 1_000_000_000L)};
        fetches[0] = LineCount.of(originLog);
        try (PacedLoad load = new PacedLoad(targets, prefix, keys, mix, rate, Duration.ofSeconds(timeout), seed, connections)) {
            load.run(Duration.ofSeconds(warmup), Duration.ofSeconds(seconds), warmTally, measureTally[0], new PacedLoad.Hooks() {
                @Override
                public void measureStarted() {
                    edges[0] = System.nanoTime();
                    cpuReadings.add(cpu.isEmpty() ? Map.of() : cpu.read());
                    fetches[1] = LineCount.of(originLog);
                    if (mark != null) {
                        try {
                            Files.writeString(mark, "measuring\n");
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    }
                    meterReadings.add(metrics.isEmpty() ? Map.of() : metrics.read());
                }

                @Override
                public void measureEnded() {
                    edges[1] = System.nanoTime();
                    cpuReadings.add(cpu.isEmpty() ? Map.of() : cpu.read());
                    fetches[2] = LineCount.of(originLog);
                    meterReadings.add(metrics.isEmpty() ? Map.of() : metrics.read());
                }
            });
        }
        PhaseFigures figures = PhaseFigures.of(setup, body, mix, rate, seconds, members, measureTally[0],
                CgroupCpu.difference(cpuReadings.get(0), cpuReadings.get(1)), (edges[1] - edges[0]) / 1e9, fetches[2] - fetches[1],
                fetches[1] - fetches[0], MemberMetrics.difference(meterReadings.get(0), meterReadings.get(1)), idle);
        figures.write(out);
        System.out.println(summary(figures, warmTally));
        List<String> strangers = figures.served().keySet().stream().filter(k -> !members.contains(k)).toList();
        if (!strangers.isEmpty()) {
            // a served-by value that names no listed member would leave its answers out of every share
            System.out.println("answers served by " + strangers + ", none of --members " + members + ": check --names");
            System.exit(3);
        }
        if (!metrics.unreachable().isEmpty()) {
            System.out.println("  metrics not read from: " + metrics.unreachable());
        }
    }

    /** One line for the log. */
    static String summary(PhaseFigures p, Tally warm) {
        return String.format(Locale.ROOT,
                "%s %s %s: %d of %d answered 2xx (warm-up: %d of %d), p99 %.2f ms, busiest served %.2f× mean (%s)%s, origin fetches %d (warm-up %d)",
                p.setup(), p.body(), p.mix(), p.ok(), p.requests(), warm.ok(), warm.ok() + warm.failed(), p.p99Ms(),
                p.busiestOverMean(), p.busiest(), p.hasCpu() ? String.format(Locale.ROOT, ", busiest CPU %.2f× mean (%s), projected capacity %.0f",
                        p.busiestCpuOverMean(), p.busiestCpu(), p.projectedCapacity()) : "", p.originFetches(), p.warmupOriginFetches());
    }

    /** {@code m0=123,m1=456}: each member's idle CPU in nanoseconds a second. */
    static Map<String, Long> idlePairs(String text, String where) {
        Map<String, Long> idle = new LinkedHashMap<>();
        for (String item : text.split(",")) {
            if (item.isBlank()) {
                continue;
            }
            int eq = item.indexOf('=');
            try {
                idle.put(item.substring(0, eq), Long.parseLong(item.substring(eq + 1)));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(where + " takes member=nanoseconds-a-second pairs; '" + item + "' is not one");
            }
        }
        return idle;
    }

    static List<InetSocketAddress> targets(List<String> texts) {
        if (texts.isEmpty()) {
            throw new IllegalArgumentException("--targets lists host:port of every entry, e.g. 127.0.0.1:19100,127.0.0.1:19101");
        }
        List<InetSocketAddress> out = new ArrayList<>();
        for (String t : texts) {
            int colon = t.lastIndexOf(':');
            try {
                InetAddress a = InetAddress.getByName(t.substring(0, colon));
                int port = Integer.parseInt(t.substring(colon + 1));
                if (!a.isLoopbackAddress() || port < 1 || port > 65535) {
                    throw new IllegalArgumentException();
                }
                out.add(new InetSocketAddress(a, port));
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException("--targets: '" + t + "' is not a loopback host:port (127.0.0.0/8 or ::1)");
            }
        }
        return out;
    }

    static String report(Options o) throws IOException {
        Path dir = Path.of(o.required("dir"));
        List<PhaseFigures> phases = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".phase")).sorted().toList()) {
                phases.add(PhaseFigures.read(f));
            }
        }
        if (phases.isEmpty()) {
            throw new IllegalArgumentException("no *.phase files in " + dir);
        }
        // idle-<setup>.pairs: each member's idle CPU (m0=ns a second,...), measured once the phases were done
        for (int i = 0; i < phases.size(); i++) {
            PhaseFigures p = phases.get(i);
            Path idle = dir.resolve("idle-" + p.setup().replaceFirst("^" + Report.KILL, "") + ".pairs");
            if (Files.exists(idle)) {
                phases.set(i, p.withIdle(idlePairs(Files.readString(idle).trim(), idle.toString())));
            }
        }
        return new Report(phases, o.text("defaults", "service-on"), o.text("off", "service-off"),
                o.number("factor", 1.25, 1.0, 100), o.text("near", "NEAR"), o.list("yardsticks").isEmpty()
                ? List.of("nginx", "haproxy") : o.list("yardsticks")).markdown();
    }
}
