package io.ketama.load.throughput;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The overload check of issue 9 (point 3), in one run against running members:
 * <ol>
 *   <li>warm-up: closed loop, as the peak phase, not measured;</li>
 *   <li>peak: two closed loops, one with {@code --concurrency} requests in flight (32, as wrk -c32), one
 *       with {@code --peak-concurrency} (256): the higher goodput is the peak, the load at which the
 *       cluster saturates (a path that parks a thread per request only reaches it with more requests
 *       in flight than wrk's 32);</li>
 *   <li>half: open loop at 0.5 × peak: the p99 of a cluster that keeps up;</li>
 *   <li>double: open loop at 2 × peak: goodput and p99 of the 2xx answers.</li>
 * </ol>
 * Verdict: goodput(double) ≥ 0.8 × peak and p99(double) ≤ 5 × p99(half).
 *
 * <p>The open phases use up to {@code --connections} (1024) connections: far more requests than a
 * member admits can be in flight, as with many independent clients, so a member that bounds its work
 * has to shed; with fewer, the excess would queue in this client instead and no server could pass.
 *
 * <pre>
 * java -cp CLASSES io.ketama.load.throughput.Overload --targets=127.0.0.1:19100,127.0.0.1:19101 \
 *   [--prefix=/cache/k/] [--keys=100000] [--connections=1024] [--concurrency=32] [--peak-concurrency=256] [--timeout-ms=5000] \
 *   [--warm=10] [--peak=10] [--half=20] [--double=20] [--pids=123,456] [--clk-tck=100] [--seed=42] [--double-rate=0]
 * </pre>
 * {@code --double-rate} (requests/s, 0 = twice the measured peak) fixes the overload phase's rate, so
 * two builds or settings can be compared at the same offered load; the verdict still divides by
 * this run's peak.
 * Prints one {@code phase=...} line per phase and an {@code overload ...} verdict line; exits 0
 * whatever the verdict (2 on bad arguments, 1 when the load could not run).
 */
public final class Overload {

    static final double GOODPUT_FLOOR = 0.8;
    static final double P99_CEILING = 5.0;

    private Overload() {
    }

    public static void main(String[] args) throws IOException {
        Settings settings;
        try {
            settings = Settings.of(args);
        } catch (IllegalArgumentException e) {
            System.err.println("Overload: " + e.getMessage());
            System.exit(2);
            return;
        }
        Settings s = settings;
        try (LoadEngine engine = new LoadEngine(s.targets, s.perTarget, s.prefix, s.keys, s.timeout, s.seed,
                new ProcCpu(s.pids, s.ticks), new ProcCpu(List.of(0L), s.ticks))) {
            engine.awaitConnected(Duration.ofSeconds(30));
            print(engine.run(Phase.closed("warm", s.concurrency, s.warm)));
            PhaseResult narrow = engine.run(Phase.closed("peak-c" + s.concurrency, s.concurrency, s.peak));
            print(narrow);
            PhaseResult wide = engine.run(Phase.closed("peak-c" + s.peakConcurrency(), s.peakConcurrency(), s.peak));
            print(wide);
            PhaseResult peak = wide.goodput() > narrow.goodput() ? wide : narrow;
            if (peak.ok() == 0) {
                System.err.println("Overload: no 2xx answer at all in the peak phase; is the cluster serving?");
                System.exit(1);
            }
            PhaseResult half = engine.run(Phase.open("half", peak.goodput() * 0.5, s.half));
            print(half);
            double doubleRate = s.doubleRate > 0 ? s.doubleRate : peak.goodput() * 2;
            PhaseResult twice = engine.run(Phase.open("double", doubleRate, s.twice));
            print(twice);
            System.out.println(verdict(peak, half, twice));
        }
    }

    private static void print(PhaseResult r) {
        System.out.println(r.line());
        System.out.flush();
    }

    /** The verdict line: the two ratios of point 3 and whether each holds. */
    static String verdict(PhaseResult peak, PhaseResult half, PhaseResult twice) {
        double goodputRatio = twice.goodput() / peak.goodput();
        long halfP99 = half.okLatencies().percentile(99);
        long twiceP99 = twice.okLatencies().percentile(99);
        double p99Ratio = halfP99 <= 0 || twiceP99 < 0 ? Double.NaN : (double) twiceP99 / halfP99;
        boolean goodputHolds = goodputRatio >= GOODPUT_FLOOR;
        boolean p99Holds = p99Ratio <= P99_CEILING;
        return String.format(Locale.ROOT,
                "overload peak=%s peak_goodput=%.0f half_p99_ms=%.2f double_goodput=%.0f double_p99_ms=%.2f goodput_ratio=%.2f (target >= %.1f: %s) p99_ratio=%.2f (target <= %.0f: %s)",
                peak.phase().name(), peak.goodput(), PhaseResult.millis(halfP99), twice.goodput(), PhaseResult.millis(twiceP99), goodputRatio,
                GOODPUT_FLOOR, goodputHolds ? "met" : "MISSED", p99Ratio, P99_CEILING, p99Holds ? "met" : "MISSED");
    }

    /** The run's settings, checked: a bad one names its option and the allowed range. */
    record Settings(List<InetSocketAddress> targets, String prefix, int keys, int perTarget, int concurrency,
                    int peakConcurrency, Duration timeout, Duration warm, Duration peak, Duration half, Duration twice, List<Long> pids,
                    long ticks, long seed, int doubleRate) {

        /** Connections over all targets. */
        int connections() {
            return perTarget * targets.size();
        }

        static Settings of(String[] args) {
            Map<String, String> opts = Args.parse(args, List.of("targets", "prefix", "keys", "connections", "concurrency",
                    "peak-concurrency", "timeout-ms", "warm", "peak", "half", "double", "pids", "clk-tck", "seed", "double-rate"));
            List<InetSocketAddress> targets = Args.targets(opts.get("targets"));
            int connections = Args.intIn(opts, "connections", 1024, 1, 10_000);
            int concurrency = Args.intIn(opts, "concurrency", 32, 1, 10_000);
            int peakConcurrency = Args.intIn(opts, "peak-concurrency", 256, 1, 10_000);
            int perTarget = Math.max(1, connections / targets.size());
            if (perTarget * targets.size() < Math.max(concurrency, peakConcurrency)) {
                throw new IllegalArgumentException("--connections (" + connections + ") must be at least --concurrency ("
                        + concurrency + ") and --peak-concurrency (" + peakConcurrency + ")");
            }
            List<Long> pids = new ArrayList<>();
            for (String p : opts.getOrDefault("pids", "").split(",")) {
                if (!p.isBlank()) {
                    try {
                        pids.add(Long.parseLong(p.trim()));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--pids: '" + p + "' is not a process id");
                    }
                }
            }
            return new Settings(targets, opts.getOrDefault("prefix", "/cache/k/"),
                    Args.intIn(opts, "keys", 100_000, 1, Integer.MAX_VALUE), perTarget, concurrency, peakConcurrency,
                    Duration.ofMillis(Args.intIn(opts, "timeout-ms", 5_000, 100, 600_000)),
                    Duration.ofSeconds(Args.intIn(opts, "warm", 10, 1, 600)),
                    Duration.ofSeconds(Args.intIn(opts, "peak", 10, 1, 600)),
                    Duration.ofSeconds(Args.intIn(opts, "half", 20, 1, 600)),
                    Duration.ofSeconds(Args.intIn(opts, "double", 20, 1, 600)),
                    pids, Args.intIn(opts, "clk-tck", 100, 1, 1_000_000), Args.intIn(opts, "seed", 42, 0, Integer.MAX_VALUE),
                    Args.intIn(opts, "double-rate", 0, 0, 10_000_000));
        }
    }

    /** {@code --name=value} arguments. */
    static final class Args {
        private Args() {
        }

        static Map<String, String> parse(String[] args, List<String> known) {
            Map<String, String> out = new HashMap<>();
            for (String a : args) {
                int eq = a.indexOf('=');
                if (!a.startsWith("--") || eq < 3) {
                    throw new IllegalArgumentException("argument '" + a + "' is not --name=value; known names: " + known);
                }
                String name = a.substring(2, eq);
                if (!known.contains(name)) {
                    throw new IllegalArgumentException("unknown option --" + name + "; known names: " + known);
                }
                out.put(name, a.substring(eq + 1));
            }
            if (known.contains("targets") && !out.containsKey("targets")) {
                throw new IllegalArgumentException("--targets=host:port[,host:port...] is required");
            }
            return out;
        }

        static int intIn(Map<String, String> opts, String name, int fallback, int min, int max) {
            String v = opts.get(name);
            if (v == null) {
                return fallback;
            }
            int n;
            try {
                n = Integer.parseInt(v.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--" + name + "=" + v + " is not a whole number");
            }
            if (n < min || n > max) {
                throw new IllegalArgumentException("--" + name + "=" + n + " is out of range [" + min + ", " + max + "]");
            }
            return n;
        }

        /** Loopback host:port pairs only. */
        static List<InetSocketAddress> targets(String text) {
            List<InetSocketAddress> out = new ArrayList<>();
            for (String t : text.split(",")) {
                int colon = t.lastIndexOf(':');
                if (colon <= 0) {
                    throw new IllegalArgumentException("target '" + t + "' is not host:port");
                }
                InetSocketAddress a = new InetSocketAddress(t.substring(0, colon).trim(), Integer.parseInt(t.substring(colon + 1).trim()));
                if (a.isUnresolved() || !a.getAddress().isLoopbackAddress()) {
                    throw new IllegalArgumentException("target '" + t + "' is not a loopback address (127.0.0.0/8 or ::1)");
                }
                out.add(a);
            }
            return out;
        }
    }
}
