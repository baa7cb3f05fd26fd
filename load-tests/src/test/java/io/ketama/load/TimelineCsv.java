package io.ketama.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Writes a run's per-second figures as CSV, one row per second, for spreadsheets and re-plotting. */
final class TimelineCsv {

    static final String HEADER = "second,epoch_ms,requests,hits,misses,bypasses,errors,failed_attempts,cluster_failovers,"
            + "hit_ratio,v2_ratio,p50_ms,p95_ms,p99_ms";

    private TimelineCsv() {
    }

    static void write(Path file, long startMillis, List<TimelineRow> rows) {
        List<String> lines = new ArrayList<>(rows.size() + 1);
        lines.add(HEADER);
        for (TimelineRow r : rows) {
            lines.add(String.join(",",
                    Integer.toString(r.second()),
                    Long.toString(startMillis + r.second() * 1000L),
                    Long.toString(r.requests()),
                    Long.toString(r.hits()),
                    Long.toString(r.misses()),
                    Long.toString(r.bypasses()),
                    Long.toString(r.errors()),
                    Long.toString(r.failedAttempts()),
                    Long.toString(r.failovers()),
                    ratio(r.hitRatio()),
                    ratio(r.v2Ratio()),
                    Long.toString(r.p50()),
                    Long.toString(r.p95()),
                    Long.toString(r.p99())));
        }
        writeLines(file, lines);
    }

    /** A ratio with 4 decimals, or empty when undefined (nothing answered). */
    static String ratio(double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.4f", value);
    }

    static void writeLines(Path file, List<String> lines) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.write(file, lines);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
