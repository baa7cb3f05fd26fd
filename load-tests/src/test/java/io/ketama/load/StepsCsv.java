package io.ketama.load;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Writes the migration steps, one row each, hit ratios beside the shadow counters' prediction. */
final class StepsCsv {

    static final String HEADER = "step,v2_share_pct,previous_share_pct,start_second,end_second,requests,hits,misses,errors,"
            + "hit_ratio,hit_ratio_before,hit_ratio_first_seconds,v2_ratio,p50_ms,p95_ms,p99_ms,"
            + "shadow_disagreements,shadow_selections,disagreement_rate,previous_disagreement_rate,"
            + "predicted_moved_fraction,carried_keys,moved_misses,observed_moved_fraction,cold_requests,repeat_misses,"
            + "tainted_carried_keys,cluster_failovers";

    private StepsCsv() {
    }

    static void write(Path file, List<StepResult> results) {
        List<String> lines = new ArrayList<>();
        lines.add(HEADER);
        for (StepResult r : results) {
            TimelineRow w = r.window();
            lines.add(String.join(",",
                    Integer.toString(r.step()),
                    Integer.toString(r.sharePercent()),
                    Integer.toString(r.previousSharePercent()),
                    Integer.toString(r.startSecond()),
                    Integer.toString(r.endSecond()),
                    Long.toString(w.requests()),
                    Long.toString(w.hits()),
                    Long.toString(w.misses()),
                    Long.toString(w.errors()),
                    TimelineCsv.ratio(w.hitRatio()),
                    TimelineCsv.ratio(r.hitRatioBefore()),
                    TimelineCsv.ratio(r.hitRatioFirstSeconds()),
                    TimelineCsv.ratio(w.v2Ratio()),
                    Long.toString(w.p50()),
                    Long.toString(w.p95()),
                    Long.toString(w.p99()),
                    count(r.shadow().disagreements()),
                    count(r.shadow().selections()),
                    TimelineCsv.ratio(r.shadow().rate()),
                    TimelineCsv.ratio(r.previousRate()),
                    TimelineCsv.ratio(r.predictedMovedFraction()),
                    Long.toString(r.carriedKeys()),
                    Long.toString(r.movedMisses()),
                    TimelineCsv.ratio(r.observedMovedFraction()),
                    Long.toString(r.coldRequests()),
                    Long.toString(r.repeatMisses()),
                    Long.toString(r.taintedCarried()),
                    Long.toString(w.failovers())));
        }
        TimelineCsv.writeLines(file, lines);
    }

    private static String count(double value) {
        return Double.isNaN(value) ? "" : Long.toString(Math.round(value));
    }
}
