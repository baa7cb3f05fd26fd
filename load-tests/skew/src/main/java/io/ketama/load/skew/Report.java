package io.ketama.load.skew;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The run's report in Markdown: per service setup and body size, a row per key mix with the
 * answers, latency, the spread of who served them and of the members' CPU, projected capacity and
 * what the cluster did (spills, near hits, failovers, origin fetches); every setup's served shares;
 * the spread of each setup side by side with the yardsticks; then the targets of issue 26 item 6,
 * each judged on figures of this run only.
 *
 * @param phases     every phase of the run
 * @param defaults   the setup that runs the service's defaults (e.g. {@code service-on})
 * @param off        the setup with bounded loads and the near cache off (e.g. {@code service-off})
 * @param factor     the balance factor the defaults' bounded loads use
 * @param nearValue  the {@code X-Ketama-Cache} value (or part of it) of a near-cache hit
 * @param yardsticks the yardstick setups (e.g. {@code nginx}, {@code haproxy})
 */
record Report(List<PhaseFigures> phases, String defaults, String off, double factor, String nearValue, List<String> yardsticks) {

    static final String UNIFORM = "uniform";
    static final String FILL = "sequential";
    static final String REFERENCE_MIX = "zipf-1.1";
    /** Setups named so are a member's kill -9 under load (issue 26 item 7), reported on their own. */
    static final String KILL = "kill-";

    Report {
        phases = List.copyOf(phases);
        yardsticks = List.copyOf(yardsticks);
    }

    String markdown() {
        StringBuilder out = new StringBuilder();
        for (String setup : setups()) {
            if (yardsticks.contains(setup) || setup.startsWith(KILL)) {
                continue;
            }
            for (String body : bodies()) {
                List<PhaseFigures> rows = measured(setup, body);
                if (!rows.isEmpty()) {
                    serviceTable(out, setup, body, rows);
                }
            }
        }
        spreadTable(out);
        sharesTables(out);
        killTable(out);
        out.append("### Targets (issue 26 item 6), as ratios within this run\n\n");
        out.append("| target | figure | limit | outcome | from |\n|---|---:|---:|---|---|\n");
        for (Verdict v : verdicts()) {
            out.append(v.row()).append('\n');
        }
        out.append('\n');
        return out.toString();
    }

    private void serviceTable(StringBuilder out, String setup, String body, List<PhaseFigures> rows) {
        PhaseFigures uniform = find(setup, body, UNIFORM);
        out.append(String.format(Locale.ROOT, "### %s, %s bodies, %d members, %.0f req/s offered\n\n", setup, body,
                rows.get(0).members().size(), rows.get(0).rate()));
        out.append("| keys | answers/s | p50 ms | p99 ms | failed | busiest served ÷ mean | idlest ÷ mean | busiest CPU ÷ mean"
                + " | projected capacity (answers per busiest member's CPU-s) | ÷ uniform | CPU µs per answer (all members)"
                + " | net of idle: busiest CPU ÷ mean, projected capacity, ÷ uniform, µs per answer"
                + " | spills | near hits | failed over | origin fetches (warm-up) |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|\n");
        for (PhaseFigures p : rows) {
            String capacityRatio = uniform != null && uniform.projectedCapacity() > 0 && p.hasCpu()
                    ? f2(p.projectedCapacity() / uniform.projectedCapacity()) : "";
            String net = !p.hasIdle() ? "n/a" : String.format(Locale.ROOT, "%.2f (%s), %.0f, %s, %.0f", p.busiestNetCpuOverMean(),
                    p.busiestNetCpu(), p.projectedNetCapacity(), uniform != null && uniform.hasIdle() && uniform.projectedNetCapacity() > 0
                            ? f2(p.projectedNetCapacity() / uniform.projectedNetCapacity()) : "", p.netCpuMicrosPerAnswer());
            out.append(String.format(Locale.ROOT, "| %s | %.0f | %.2f | %.2f | %d | %.2f (%s) | %.2f | %s | %s | %s | %s | %s | %d | %d | %d | %d (%d) |\n",
                    p.mix(), p.answersPerSecond(), p.p50Ms(), p.p99Ms(), p.failed(), p.busiestOverMean(), p.busiest(),
                    p.idlestOverMean(), p.hasCpu() ? f2(p.busiestCpuOverMean()) + " (" + p.busiestCpu() + ")" : "n/a",
                    p.hasCpu() ? String.format(Locale.ROOT, "%.0f", p.projectedCapacity()) : "n/a", capacityRatio,
                    p.hasCpu() ? String.format(Locale.ROOT, "%.0f", p.cpuMicrosPerAnswer()) : "n/a", net, p.spills(nearValue),
                    p.nearHits(nearValue), p.failedOver(), p.originFetches(), p.warmupOriginFetches()));
        }
        out.append('\n');
        for (PhaseFigures p : rows) {
            if (!p.meters().isEmpty()) {
                StringBuilder m = new StringBuilder();
                new java.util.TreeMap<>(p.meters()).forEach((k, v) -> m.append(m.length() == 0 ? "" : ", ").append(k).append(' ')
                        .append(String.format(Locale.ROOT, "%.0f", v)));
                out.append("- ").append(p.mix()).append(", the members' meters over the measured interval (sums): ").append(m).append('\n');
            }
        }
        if (rows.stream().anyMatch(p -> !p.meters().isEmpty())) {
            out.append('\n');
        }
        PhaseFigures fill = find(setup, body, FILL);
        if (fill != null) {
            out.append(String.format(Locale.ROOT, "fill before these phases: %d keys asked once, %d origin fetches, %d failed\n\n",
                    fill.requests(), fill.originFetches() + fill.warmupOriginFetches(), fill.failed()));
        }
    }

    /** The kill -9 phases: every request due, how many failed, when, and how the cluster served the rest. */
    private void killTable(StringBuilder out) {
        List<PhaseFigures> kills = phases.stream().filter(p -> p.setup().startsWith(KILL)).toList();
        if (kills.isEmpty()) {
            return;
        }
        out.append("### kill -9 of a member under load (issue 26 item 7)\n\n");
        out.append("| setup | body | keys | requests | 2xx | failed | failures by kind | failed by second of the interval | answers that failed over | spills | near hits | p99 ms |\n");
        out.append("|---|---|---|---:|---:|---:|---|---|---:|---:|---:|---:|\n");
        for (PhaseFigures p : kills) {
            out.append(String.format(Locale.ROOT, "| %s | %s | %s | %d | %d | %d | %s | %s | %d | %d | %d | %.2f |\n", p.setup(), p.body(),
                    p.mix(), p.requests(), p.ok(), p.failed(), p.failures().isEmpty() ? "none" : p.failures(),
                    p.failuresBySecond().isEmpty() ? "none" : new java.util.TreeMap<>(p.failuresBySecond()), p.failedOver(),
                    p.spills(nearValue), p.nearHits(nearValue), p.p99Ms()));
        }
        out.append('\n');
    }

    /** Busiest served share ÷ mean of every setup, side by side, per body and mix. */
    private void spreadTable(StringBuilder out) {
        List<String> setups = setups().stream().filter(s -> !s.startsWith(KILL)).toList();
        out.append("### Busiest member's served share ÷ the mean member's, every setup\n\n| body | keys |");
        for (String s : setups) {
            out.append(' ').append(s).append(" |");
        }
        out.append("\n|---|---|");
        out.append("---:|".repeat(setups.size()));
        out.append('\n');
        for (String body : bodies()) {
            for (String mix : mixes()) {
                out.append("| ").append(body).append(" | ").append(mix).append(" |");
                for (String s : setups) {
                    PhaseFigures p = find(s, body, mix);
                    out.append(' ').append(p == null ? "" : f2(p.busiestOverMean())).append(" |");
                }
                out.append('\n');
            }
        }
        out.append('\n');
    }

    /** Each member's share of the answers (%), rows grouped by the members they list. */
    private void sharesTables(StringBuilder out) {
        Map<List<String>, List<PhaseFigures>> groups = new LinkedHashMap<>();
        for (PhaseFigures p : phases) {
            if (!p.mix().equals(FILL) && !p.setup().startsWith(KILL)) {
                groups.computeIfAbsent(p.members(), k -> new ArrayList<>()).add(p);
            }
        }
        for (Map.Entry<List<String>, List<PhaseFigures>> g : groups.entrySet()) {
            out.append("### Served share of each member (% of the answers, counted by the client from X-Ketama-Served-By)\n\n");
            out.append("| setup | body | keys |");
            for (String m : g.getKey()) {
                out.append(' ').append(m).append(" |");
            }
            out.append("\n|---|---|---|").append("---:|".repeat(g.getKey().size())).append('\n');
            for (PhaseFigures p : g.getValue()) {
                out.append("| ").append(p.setup()).append(" | ").append(p.body()).append(" | ").append(p.mix()).append(" |");
                for (String m : g.getKey()) {
                    out.append(String.format(Locale.ROOT, " %.1f |", 100 * p.share(m)));
                }
                out.append('\n');
            }
            out.append('\n');
            List<PhaseFigures> withCpu = g.getValue().stream().filter(PhaseFigures::hasCpu).toList();
            if (!withCpu.isEmpty()) {
                out.append("CPU of each member (% of all members' CPU in the interval, from its cgroup):\n\n| setup | body | keys |");
                for (String m : g.getKey()) {
                    out.append(' ').append(m).append(" |");
                }
                out.append("\n|---|---|---|").append("---:|".repeat(g.getKey().size())).append('\n');
                for (PhaseFigures p : withCpu) {
                    out.append("| ").append(p.setup()).append(" | ").append(p.body()).append(" | ").append(p.mix()).append(" |");
                    for (String m : g.getKey()) {
                        out.append(String.format(Locale.ROOT, " %.1f |", 100.0 * p.cpuNanos().getOrDefault(m, 0L) / p.totalCpuNanos()));
                    }
                    out.append('\n');
                }
                out.append('\n');
            }
        }
    }

    /** The targets of item 6, each on this run's figures; a target whose phases are missing is "not measured". */
    List<Verdict> verdicts() {
        List<Verdict> out = new ArrayList<>();
        for (String body : bodies()) {
            PhaseFigures d11 = find(defaults, body, REFERENCE_MIX);
            PhaseFigures dUniform = find(defaults, body, UNIFORM);
            String at = " (" + defaults + ", " + body + ")";
            out.add(Verdict.atMost("busiest member's served share ÷ mean, Zipf 1.1" + at, d11 == null ? Double.NaN : d11.busiestOverMean(),
                    1.25, d11 == null ? "" : d11.busiest() + " served " + pct(d11.share(d11.busiest())) + " of " + d11.ok()
                            + " answers against a mean of " + pct(1.0 / d11.members().size())));
            out.add(Verdict.atMost("busiest member's CPU ÷ mean, Zipf 1.1" + at,
                    d11 == null || !d11.hasCpu() ? Double.NaN : d11.busiestCpuOverMean(), 1.25,
                    d11 == null || !d11.hasCpu() ? "" : d11.busiestCpu() + " used " + String.format(Locale.ROOT, "%.2f",
                            d11.cpuNanos().get(d11.busiestCpu()) / 1e9) + " CPU-s of " + String.format(Locale.ROOT, "%.2f",
                            d11.totalCpuNanos() / 1e9)));
            out.add(Verdict.atLeast("projected capacity, Zipf 1.1 ÷ uniform" + at,
                    d11 == null || dUniform == null || !d11.hasCpu() || !dUniform.hasCpu() ? Double.NaN
                            : d11.projectedCapacity() / dUniform.projectedCapacity(), 1.0,
                    d11 == null || dUniform == null ? "" : String.format(Locale.ROOT, "%.0f ÷ %.0f answers per busiest member's CPU-s",
                            d11.projectedCapacity(), dUniform.projectedCapacity())));
            out.add(Verdict.atMost("  … net of idle CPU" + at, d11 == null || !d11.hasIdle() ? Double.NaN : d11.busiestNetCpuOverMean(),
                    1.25, d11 == null || !d11.hasIdle() ? "" : d11.busiestNetCpu() + ", each member's idle CPU rate × the interval taken off"));
            out.add(Verdict.atLeast("  … projected capacity net of idle CPU, Zipf 1.1 ÷ uniform" + at,
                    d11 == null || dUniform == null || !d11.hasIdle() || !dUniform.hasIdle() ? Double.NaN
                            : d11.projectedNetCapacity() / dUniform.projectedNetCapacity(), 1.0,
                    d11 == null || dUniform == null ? "" : String.format(Locale.ROOT, "%.0f ÷ %.0f", d11.projectedNetCapacity(),
                            dUniform.projectedNetCapacity())));
            for (String mix : mixes()) {
                if (!mix.startsWith("zipf-")) {
                    continue;
                }
                PhaseFigures b = find(defaults, body, mix);
                out.add(Verdict.atMost("peak member load ÷ mean with bounded loads, " + mix + at,
                        b == null ? Double.NaN : b.busiestOverMean(), factor, b == null ? "" : "busiest " + b.busiest()));
                for (String y : yardsticks) {
                    PhaseFigures yp = find(y, body, mix);
                    if (yp == null) {
                        yp = find(y, "1k", mix);
                    }
                    out.add(Verdict.atMost("  … below " + y + "'s owners' spread, " + mix + at,
                            b == null ? Double.NaN : b.busiestOverMean(), yp == null ? Double.NaN : yp.busiestOverMean(),
                            yp == null ? "" : y + " (" + yp.body() + "): busiest owner " + yp.busiest() + " at "
                                    + f2(yp.busiestOverMean()) + " × the mean"));
                }
            }
            long onFetches = zipfFetches(defaults, body);
            long offFetches = zipfFetches(off, body);
            out.add(Verdict.atMost("origin fetches: fill + Zipf phases, bounded loads on ÷ off" + at,
                    onFetches < 0 || offFetches < 0 ? Double.NaN : fetchRatio(onFetches, offFetches), 1.1,
                    onFetches + " ÷ " + offFetches + " (fill, then each Zipf phase's warm-up and measured interval)"));
            PhaseFigures oUniform = find(off, body, UNIFORM);
            out.add(Verdict.atLeast("uniform-key capacity, everything on ÷ off (CPU per answer, off ÷ on)" + at,
                    dUniform == null || oUniform == null || !dUniform.hasCpu() || !oUniform.hasCpu() ? Double.NaN
                            : oUniform.cpuMicrosPerAnswer() / dUniform.cpuMicrosPerAnswer(), 0.95,
                    dUniform == null || oUniform == null ? "" : String.format(Locale.ROOT,
                            "%.0f µs off, %.0f µs on; projected capacity on ÷ off %.2f; answers/s %.0f on, %.0f off",
                            oUniform.cpuMicrosPerAnswer(), dUniform.cpuMicrosPerAnswer(),
                            dUniform.projectedCapacity() / oUniform.projectedCapacity(), dUniform.answersPerSecond(),
                            oUniform.answersPerSecond())));
        }
        return out;
    }

    /** Origin fetches of the fill and every Zipf phase (warm-up and measured) of a setup; -1 when it has none. */
    private long zipfFetches(String setup, String body) {
        long n = 0;
        boolean any = false;
        for (PhaseFigures p : phases) {
            if (p.setup().equals(setup) && p.body().equals(body) && (p.mix().startsWith("zipf-") || p.mix().equals(FILL))) {
                n += p.originFetches() + p.warmupOriginFetches();
                any = true;
            }
        }
        return any ? n : -1;
    }

    /** {@code on ÷ off}; 1 when both are 0 (no fetch either way), infinite when only off is 0. */
    static double fetchRatio(long on, long off) {
        if (off == 0) {
            return on == 0 ? 1.0 : Double.POSITIVE_INFINITY;
        }
        return (double) on / off;
    }

    private List<PhaseFigures> measured(String setup, String body) {
        List<PhaseFigures> out = new ArrayList<>();
        for (String mix : mixes()) {
            PhaseFigures p = find(setup, body, mix);
            if (p != null) {
                out.add(p);
            }
        }
        return out;
    }

    PhaseFigures find(String setup, String body, String mix) {
        PhaseFigures found = null;
        for (PhaseFigures p : phases) {
            if (p.setup().equals(setup) && p.body().equals(body) && p.mix().equals(mix)) {
                found = p;
            }
        }
        return found;
    }

    private List<String> setups() {
        Set<String> s = new LinkedHashSet<>();
        phases.forEach(p -> s.add(p.setup()));
        return new ArrayList<>(s);
    }

    private List<String> bodies() {
        Set<String> s = new LinkedHashSet<>();
        phases.forEach(p -> s.add(p.body()));
        return new ArrayList<>(s);
    }

    /** The measured mixes in the order of their first phase (the fill left out). */
    private List<String> mixes() {
        Set<String> s = new LinkedHashSet<>();
        phases.stream().map(PhaseFigures::mix).filter(m -> !Objects.equals(m, FILL)).forEach(s::add);
        return new ArrayList<>(s);
    }

    private static String f2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String pct(double share) {
        return String.format(Locale.ROOT, "%.1f %%", 100 * share);
    }
}
