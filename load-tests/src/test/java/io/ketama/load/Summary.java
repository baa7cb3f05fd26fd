package io.ketama.load;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The headline figures of a scenario, in insertion order, written as a two-column CSV and printed. */
final class Summary {

    private final String scenario;
    private final Map<String, String> figures = new LinkedHashMap<>();

    Summary(String scenario) {
        this.scenario = scenario;
    }

    Summary put(String name, Object value) {
        figures.put(name, String.valueOf(value));
        return this;
    }

    Summary putRatio(String name, double value) {
        figures.put(name, Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.4f", value));
        return this;
    }

    /** Adds the figures of a window: requests by outcome, failed attempts, failovers, hit ratio and percentiles. */
    Summary putWindow(String prefix, TimelineRow w) {
        put(prefix + "requests", w.requests());
        put(prefix + "hits", w.hits());
        put(prefix + "misses", w.misses());
        put(prefix + "bypasses", w.bypasses());
        put(prefix + "errors", w.errors());
        put(prefix + "failed_attempts", w.failedAttempts());
        put(prefix + "cluster_failovers", w.failovers());
        putRatio(prefix + "hit_ratio", w.hitRatio());
        put(prefix + "p50_ms", w.p50());
        put(prefix + "p95_ms", w.p95());
        put(prefix + "p99_ms", w.p99());
        return this;
    }

    void write(Path csv) {
        List<String> lines = new ArrayList<>();
        lines.add("metric,value");
        figures.forEach((k, v) -> lines.add(k + "," + v));
        TimelineCsv.writeLines(csv, lines);
    }

    void print() {
        StringBuilder out = new StringBuilder("\n=== ").append(scenario).append(" ===\n");
        figures.forEach((k, v) -> out.append(String.format(Locale.ROOT, "  %-34s %s%n", k, v)));
        System.out.print(out);
    }
}
