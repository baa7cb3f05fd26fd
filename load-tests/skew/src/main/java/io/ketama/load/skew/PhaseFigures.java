package io.ketama.load.skew;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The figures of one measured interval: which setup (the service in some configuration, or a
 * yardstick router), which bodies and keys, what the client saw, what each member's CPU did. The
 * derived figures are the issue's:
 * <ul>
 *   <li>a member's <b>served share</b>: the answers it served ÷ all answers; the <b>busiest ÷ mean</b>
 *   of those shares is the busiest member's answers × N ÷ all answers (1.0 = perfectly even; 1.84
 *   when one of 8 members serves 23 % of the answers);</li>
 *   <li><b>busiest CPU ÷ mean</b>: the busiest member's CPU-seconds × N ÷ all members' CPU-seconds;</li>
 *   <li><b>projected capacity</b>: answers ÷ the busiest member's CPU-seconds. On dedicated hosts the
 *   busiest member saturates first, at one core: this is the request rate the whole cluster then
 *   carries, per core of its busiest member (8 members each using 0.1 s for 1,000 answers: 10,000;
 *   one of them using 0.3 s: 3,333).</li>
 * </ul>
 * Written as {@code key=value} lines (one file per phase) so that a run's phases, made by separate
 * JVMs, meet in one report.
 *
 * @param setup              e.g. {@code service-off}, {@code service-on}, {@code nginx}, {@code haproxy}
 * @param body               the origin's body size label, e.g. {@code 1k}
 * @param mix                the key mix's name ({@link KeyMix})
 * @param rate               requests a second offered
 * @param seconds            length of the measured interval's schedule
 * @param members            every member (or owner server) of the setup, in report order
 * @param requests           requests due in the interval
 * @param ok                 2xx answers
 * @param failures           requests without a 2xx answer, by kind ({@link Tally.Failure})
 * @param statuses           answers by HTTP status
 * @param failuresBySecond   failures by the second of the interval they were due in
 * @param p50Ms              median latency of the 2xx answers, from when they were due
 * @param p99Ms              99th percentile of the same
 * @param served             2xx answers by the member that served them
 * @param offOwner           of those, answers served by a member other than the key's owner
 * @param cache              2xx answers by {@code X-Ketama-Cache} value
 * @param failedOver         answers with {@code X-Ketama-Failover}
 * @param cpuNanos           each member's CPU in the interval (empty where not counted)
 * @param cpuWallSeconds     wall time between the two CPU readings
 * @param originFetches      the origin's fetches in the interval
 * @param warmupOriginFetches the origin's fetches in the warm-up before it
 * @param meters             sums over the members of the meters asked for, differences over the interval
 * @param idleNanosPerSecond each member's CPU while idle (no load), nanoseconds a second, measured
 *                           before the phases (empty where not measured): "net of idle" figures take
 *                           {@code idle × cpuWallSeconds} off each member's CPU
 */
public record PhaseFigures(String setup, String body, String mix, double rate, double seconds, List<String> members,
                           long requests, long ok, Map<String, Long> failures, Map<Integer, Long> statuses,
                           Map<Long, Long> failuresBySecond, double p50Ms, double p99Ms, Map<String, Long> served,
                           Map<String, Long> offOwner, Map<String, Long> cache, long failedOver, Map<String, Long> cpuNanos,
                           double cpuWallSeconds, long originFetches, long warmupOriginFetches, Map<String, Double> meters,
                           Map<String, Long> idleNanosPerSecond) {

    public PhaseFigures {
        members = List.copyOf(members);
        failures = Map.copyOf(failures);
        statuses = Map.copyOf(statuses);
        failuresBySecond = Map.copyOf(failuresBySecond);
        served = Map.copyOf(served);
        offOwner = Map.copyOf(offOwner);
        cache = Map.copyOf(cache);
        cpuNanos = Map.copyOf(cpuNanos);
        meters = Map.copyOf(meters);
        idleNanosPerSecond = Map.copyOf(idleNanosPerSecond);
    }

    /** The figures of a tally and the readings around it. */
    static PhaseFigures of(String setup, String body, KeyMix mix, double rate, double seconds, List<String> members, Tally t,
                           Map<String, Long> cpuNanos, double cpuWallSeconds, long originFetches, long warmupOriginFetches,
                           Map<String, Double> meters, Map<String, Long> idleNanosPerSecond) {
        Map<String, Long> failures = new TreeMap<>();
        t.failures().forEach((k, v) -> failures.put(k.name().toLowerCase(Locale.ROOT), v));
        return new PhaseFigures(setup, body, mix.name(), rate, seconds, members, t.ok() + t.failed(), t.ok(), failures,
                t.statuses(), t.failuresBySecond(), t.okLatencies().percentile(50) / 1e6, t.okLatencies().percentile(99) / 1e6,
                t.servedBy(), t.offOwnerBy(), t.cacheValues(), t.failedOver(), cpuNanos, cpuWallSeconds, originFetches,
                warmupOriginFetches, meters, idleNanosPerSecond);
    }

    /** These figures with each member's idle CPU rate replaced (measured apart, e.g. after the phases). */
    public PhaseFigures withIdle(Map<String, Long> idle) {
        return new PhaseFigures(setup, body, mix, rate, seconds, members, requests, ok, failures, statuses, failuresBySecond, p50Ms,
                p99Ms, served, offOwner, cache, failedOver, cpuNanos, cpuWallSeconds, originFetches, warmupOriginFetches, meters, idle);
    }

    public long failed() {
        return failures.values().stream().mapToLong(Long::longValue).sum();
    }

    /** 2xx answers a second over the interval's schedule. */
    public double answersPerSecond() {
        return seconds > 0 ? ok / seconds : 0;
    }

    /** Member {@code m}'s share of the 2xx answers (0 to 1). */
    public double share(String m) {
        return ok == 0 ? 0 : (double) served.getOrDefault(m, 0L) / ok;
    }

    /** The member that served the most answers (first in report order on a tie). */
    public String busiest() {
        return argmax(m -> (double) served.getOrDefault(m, 0L));
    }

    /** The busiest member's share ÷ the mean member's share ({@code 1 / members}). */
    public double busiestOverMean() {
        return members.isEmpty() ? 0 : share(busiest()) * members.size();
    }

    /** The idlest member's share ÷ the mean member's share. */
    public double idlestOverMean() {
        double least = Double.MAX_VALUE;
        for (String m : members) {
            least = Math.min(least, share(m));
        }
        return members.isEmpty() ? 0 : least * members.size();
    }

    /** Answers served off the key's owner that were not near-cache hits ({@code nearValue} in {@code X-Ketama-Cache}). */
    public long spills(String nearValue) {
        long off = offOwner.values().stream().mapToLong(Long::longValue).sum();
        return Math.max(0, off - nearHits(nearValue));
    }

    /** Answers whose {@code X-Ketama-Cache} contains {@code nearValue} (case-insensitive). */
    public long nearHits(String nearValue) {
        String v = nearValue.toUpperCase(Locale.ROOT);
        long n = 0;
        for (Map.Entry<String, Long> e : cache.entrySet()) {
            if (e.getKey().toUpperCase(Locale.ROOT).contains(v)) {
                n += e.getValue();
            }
        }
        return n;
    }

    public boolean hasCpu() {
        return !cpuNanos.isEmpty() && totalCpuNanos() > 0;
    }

    public long totalCpuNanos() {
        return cpuNanos.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The member whose CPU was the most. */
    public String busiestCpu() {
        return argmax(m -> (double) cpuNanos.getOrDefault(m, 0L));
    }

    /** The busiest member's CPU ÷ the mean member's CPU. */
    public double busiestCpuOverMean() {
        long total = totalCpuNanos();
        return total == 0 ? 0 : (double) cpuNanos.getOrDefault(busiestCpu(), 0L) * members.size() / total;
    }

    /** Answers ÷ the busiest member's CPU-seconds: what the cluster carries per core of its busiest member. */
    public double projectedCapacity() {
        long busiest = cpuNanos.getOrDefault(busiestCpu(), 0L);
        return busiest == 0 ? 0 : ok / (busiest / 1e9);
    }

    public boolean hasIdle() {
        return hasCpu() && !idleNanosPerSecond.isEmpty();
    }

    /** Member {@code m}'s CPU less what it used idle over the same wall time (at least 0). */
    public long netCpuNanos(String m) {
        long idle = Math.round(idleNanosPerSecond.getOrDefault(m, 0L) * cpuWallSeconds);
        return Math.max(0, cpuNanos.getOrDefault(m, 0L) - idle);
    }

    private long totalNetCpuNanos() {
        long n = 0;
        for (String m : members) {
            n += netCpuNanos(m);
        }
        return n;
    }

    /** The member whose CPU net of idle was the most. */
    public String busiestNetCpu() {
        return argmax(m -> (double) netCpuNanos(m));
    }

    /** {@link #busiestCpuOverMean} with each member's idle CPU taken off: the skew of the work itself. */
    public double busiestNetCpuOverMean() {
        long total = totalNetCpuNanos();
        return total == 0 ? 0 : (double) netCpuNanos(busiestNetCpu()) * members.size() / total;
    }

    /** {@link #projectedCapacity} with the busiest member's idle CPU taken off. */
    public double projectedNetCapacity() {
        long busiest = netCpuNanos(busiestNetCpu());
        return busiest == 0 ? 0 : ok / (busiest / 1e9);
    }

    /** All members' CPU per answer, net of idle, in microseconds. */
    public double netCpuMicrosPerAnswer() {
        return ok == 0 ? 0 : totalNetCpuNanos() / 1e3 / ok;
    }

    /** All members' CPU per answer, in microseconds. */
    public double cpuMicrosPerAnswer() {
        return ok == 0 ? 0 : totalCpuNanos() / 1e3 / ok;
    }

    private String argmax(Function<String, Double> value) {
        String best = members.isEmpty() ? "" : members.get(0);
        for (String m : members) {
            if (value.apply(m) > value.apply(best)) {
                best = m;
            }
        }
        return best;
    }

    // ---- the file form --------------------------------------------------------------------------

    /** The figures as {@code key=value} lines, keys sorted. */
    public String text() {
        Map<String, String> kv = new TreeMap<>();
        kv.put("setup", setup);
        kv.put("body", body);
        kv.put("mix", mix);
        kv.put("rate", num(rate));
        kv.put("seconds", num(seconds));
        kv.put("members", String.join(",", members));
        kv.put("requests", Long.toString(requests));
        kv.put("ok", Long.toString(ok));
        kv.put("p50_ms", num(p50Ms));
        kv.put("p99_ms", num(p99Ms));
        kv.put("failed_over", Long.toString(failedOver));
        kv.put("cpu_wall_seconds", num(cpuWallSeconds));
        kv.put("origin_fetches", Long.toString(originFetches));
        kv.put("warmup_origin_fetches", Long.toString(warmupOriginFetches));
        failures.forEach((k, v) -> kv.put("failures." + k, v.toString()));
        statuses.forEach((k, v) -> kv.put("status." + k, v.toString()));
        failuresBySecond.forEach((k, v) -> kv.put("failures_at." + k, v.toString()));
        served.forEach((k, v) -> kv.put("served." + k, v.toString()));
        offOwner.forEach((k, v) -> kv.put("off_owner." + k, v.toString()));
        cache.forEach((k, v) -> kv.put("cache." + k, v.toString()));
        cpuNanos.forEach((k, v) -> kv.put("cpu_ns." + k, v.toString()));
        meters.forEach((k, v) -> kv.put("meter." + k, num(v)));
        idleNanosPerSecond.forEach((k, v) -> kv.put("idle_ns_per_s." + k, v.toString()));
        StringBuilder out = new StringBuilder();
        kv.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
        return out.toString();
    }

    private static String num(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    public void write(Path file) throws IOException {
        Files.writeString(file, text());
    }

    /** Reads the lines {@link #text} wrote. */
    public static PhaseFigures parse(String text) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("not a key=value line: '" + line + "'");
            }
            kv.put(line.substring(0, eq), line.substring(eq + 1));
        }
        String setup = required(kv, "setup");
        String body = required(kv, "body");
        String mix = required(kv, "mix");
        String membersText = required(kv, "members");
        List<String> members = membersText.isEmpty() ? List.of() : new ArrayList<>(Arrays.asList(membersText.split(",")));
        return new PhaseFigures(setup, body, mix,
                Double.parseDouble(required(kv, "rate")), Double.parseDouble(required(kv, "seconds")), members,
                Long.parseLong(required(kv, "requests")), Long.parseLong(required(kv, "ok")), longs(kv, "failures.", k -> k),
                longs(kv, "status.", Integer::valueOf), longs(kv, "failures_at.", Long::valueOf),
                Double.parseDouble(required(kv, "p50_ms")), Double.parseDouble(required(kv, "p99_ms")), longs(kv, "served.", k -> k),
                longs(kv, "off_owner.", k -> k), longs(kv, "cache.", k -> k), Long.parseLong(required(kv, "failed_over")),
                longs(kv, "cpu_ns.", k -> k), Double.parseDouble(required(kv, "cpu_wall_seconds")),
                Long.parseLong(required(kv, "origin_fetches")), Long.parseLong(required(kv, "warmup_origin_fetches")),
                doubles(kv, "meter."), longs(kv, "idle_ns_per_s.", k -> k));
    }

    public static PhaseFigures read(Path file) throws IOException {
        try {
            return parse(Files.readString(file));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    private static String required(Map<String, String> kv, String key) {
        String v = kv.get(key);
        if (v == null) {
            throw new IllegalArgumentException("no '" + key + "' line");
        }
        return v;
    }

    private static <K extends Comparable<K>> Map<K, Long> longs(Map<String, String> kv, String prefix, Function<String, K> key) {
        Map<K, Long> out = new TreeMap<>();
        kv.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                out.put(key.apply(k.substring(prefix.length())), Long.parseLong(v));
            }
        });
        return out;
    }

    private static Map<String, Double> doubles(Map<String, String> kv, String prefix) {
        Map<String, Double> out = new TreeMap<>();
        kv.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                out.put(k.substring(prefix.length()), Double.parseDouble(v));
            }
        });
        return out;
    }
}
