package io.ketama.load;

import java.util.List;

/**
 * The v2 share steps of the migration scenario and how long each lasts.
 *
 * @param shares           v2 share in percent for each step, non-decreasing, the first one held
 *                         during the warm-up (e.g. 0, 1, 10, 50, 100)
 * @param warmupSeconds    how long the first share is held while the caches fill
 * @param stepSeconds      how long every later share is held
 * @param disagreementsMetric Prometheus name of the shadow disagreement counter
 * @param selectionsMetrics   Prometheus names of the counter of selections the disagreements are
 *                            out of, the first one present is used: the shadow selections (every
 *                            selection computed on both rings), else all selections
 */
record MigrationPlan(List<Integer> shares, int warmupSeconds, int stepSeconds,
                     String disagreementsMetric, List<String> selectionsMetrics) {

    MigrationPlan {
        shares = List.copyOf(shares);
        selectionsMetrics = List.copyOf(selectionsMetrics);
        if (selectionsMetrics.isEmpty()) {
            throw new IllegalArgumentException("load.metric.selections names no meter; give e.g. ketama_shadow_selections,ketama_selections");
        }
        if (shares.size() < 2) {
            throw new IllegalArgumentException("load.shares needs at least two steps (e.g. 0,1,10,50,100), was " + shares);
        }
        for (int i = 1; i < shares.size(); i++) {
            if (shares.get(i) < shares.get(i - 1)) {
                throw new IllegalArgumentException("load.shares must not decrease (a raise only moves keys v1 -> v2), was " + shares);
            }
        }
    }

    static MigrationPlan fromSystemProperties() {
        Props props = Props.system();
        String dis = props.optional("load.metric.disagreements");
        String sel = props.optional("load.metric.selections");
        return new MigrationPlan(
                props.intList("load.shares", "0,1,10,50,100", 0, 100),
                props.intIn("load.warmupSeconds", 40, 1, 3600),
                props.intIn("load.stepSeconds", 25, 1, 3600),
                dis == null ? "ketama_shadow_disagreements" : dis,
                List.of((sel == null ? "ketama_shadow_selections,ketama_selections" : sel).split("\\s*,\\s*")));
    }

    /** Seconds from the start of the load to the end of the last step. */
    int totalSeconds() {
        return warmupSeconds + (shares.size() - 1) * stepSeconds;
    }

    /** The request body of {@code PUT /q/ketama/migration} for {@code sharePercent}, shadow on. */
    static String migrationBody(int sharePercent) {
        return "{\"mode\":\"SPLIT\",\"v2SharePercent\":" + sharePercent + ",\"shadow\":true}";
    }
}
