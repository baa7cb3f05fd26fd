package io.ketama.load;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Scenario (b): the v2 share raised step by step (default 0 → 1 → 10 → 50 → 100 %) on every
 * member under a constant Zipf load, with shadow mode on. Before each raise the controller reads
 * the shadow counters; the disagreement rate of the step just finished predicts the share of keys
 * the raise moves, {@code Δshare/100 × rate}, and the ledger counts the keys that did move.
 *
 * <p>The cluster must start in split mode, share = first step, shadow on. Writes
 * {@code steps.csv}, {@code timeline.csv}, {@code timeline.png}, {@code steps.png} and
 * {@code summary.csv} into {@code load.out}.
 */
public class MigrationSimulation extends Simulation {

    /** Seconds at the edges of a step compared: the last ones before a raise, the first ones after. */
    private static final int EDGE_SECONDS = 5;
    /**
     * Extra seconds of load after the last step is planned to end: admin calls take time on a busy
     * machine, and the last step must not run out of load before the controller closes it.
     */
    private static final int SLACK_SECONDS = 20;

    private final LoadSettings settings = LoadSettings.fromSystemProperties("migration");
    private final MigrationPlan plan = MigrationPlan.fromSystemProperties();
    private final Timeline timeline = new Timeline(System.currentTimeMillis(), plan.totalSeconds() + SLACK_SECONDS + 120);
    private final MigrationLedger ledger = new MigrationLedger(plan.shares(), settings.keys());
    private final ClusterAdmin admin = new ClusterAdmin(settings.managementPorts(), LoadSettings.adminToken());
    private final MemberPool pool = new MemberPool(settings.ports(), List.of());
    private volatile long measuredStart;

    {
        ScenarioBuilder load = scenario("Zipf load under migration")
                .feed(new ZipfKeys(settings.keys(), settings.zipfExponent(), settings.seed()))
                .exec(CacheRequests.chain(pool, settings.attempts(), RequestLog.both(RequestLog.of(timeline), ledger)));

        // Before the measured load: set the first share and read the counters once, which also warms
        // the admin endpoints up, so the step boundaries later cost milliseconds, not seconds.
        ChainBuilder steps = admin.setShare(plan.shares().get(0))
                .exec(admin.readShadowCounters(plan, c -> { }))
                .pause(s -> Duration.ofMillis(Math.max(0, measuredStart - System.currentTimeMillis())))
                .exec(admin.readShadowCounters(plan, c -> ledger.beginStep(0, System.currentTimeMillis(), c)))
                .pause(Duration.ofSeconds(plan.warmupSeconds()));
        for (int i = 1; i < plan.shares().size(); i++) {
            int step = i;
            int share = plan.shares().get(i);
            // Counters first (they close the previous step), then the step begins, then the raise:
            // an answer in between is counted in the new step, served by the old share.
            steps = steps.exec(admin.readShadowCounters(plan, c -> ledger.beginStep(step, System.currentTimeMillis(), c)))
                    .exec(admin.setShare(share))
                    .pause(Duration.ofSeconds(plan.stepSeconds()));
        }
        steps = steps.exec(admin.readShadowCounters(plan, c -> ledger.finish(System.currentTimeMillis(), c)));
        ScenarioBuilder controller = scenario("migration controller").exec(steps);

        setUp(WarmUp.with(settings, pool,
                load.injectOpen(WarmUp.after(settings,
                        constantUsersPerSec(settings.rate()).during(plan.totalSeconds() + SLACK_SECONDS))),
                controller.injectOpen(atOnceUsers(1))))
                .protocols(Protocols.loopback());
    }

    @Override
    public void before() {
        measuredStart = WarmUp.measuredStart(settings);
        timeline.startAt(measuredStart);
    }

    @Override
    public void after() {
        List<StepResult> results = ledger.results(timeline, EDGE_SECONDS);
        List<TimelineRow> rows = timeline.rows();
        StepsCsv.write(settings.out().resolve("steps.csv"), results);
        TimelineCsv.write(settings.out().resolve("timeline.csv"), timeline.startMillis(), rows);

        List<Marker> markers = new ArrayList<>();
        for (StepResult r : results) {
            markers.add(new Marker(r.startSecond(), "v2 " + r.sharePercent() + "%"));
        }
        TimelineRow all = timeline.window(0, rows.size());
        TimelineChart.render("Migration v1 → v2 under load: " + settings.ports().size() + " members, shadow on",
                String.format(Locale.ROOT, "%.0f req/s, %d keys, Zipf s=%.2f; v2 share %s, %d s warm-up then %d s per step; %d errors",
                        settings.rate(), settings.keys(), settings.zipfExponent(), plan.shares(), plan.warmupSeconds(),
                        plan.stepSeconds(), all.errors()),
                rows, markers, settings.out().resolve("timeline.png"));
        StepChart.render(results, settings.out().resolve("steps.png"));

        Summary summary = new Summary("migration")
                .put("members", settings.ports())
                .put("rate_per_s", settings.rate())
                .put("keys", settings.keys())
                .put("shares", plan.shares())
                .putWindow("all_", all);
        for (StepResult r : results) {
            String p = "step" + r.step() + "_" + r.sharePercent() + "pct_";
            summary.putRatio(p + "hit_ratio", r.window().hitRatio())
                    .putRatio(p + "hit_ratio_first" + EDGE_SECONDS + "s", r.hitRatioFirstSeconds())
                    .putRatio(p + "disagreement_rate", r.shadow().rate())
                    .putRatio(p + "predicted_moved", r.predictedMovedFraction())
                    .putRatio(p + "observed_moved", r.observedMovedFraction())
                    .put(p + "moved_of_carried", r.movedMisses() + "/" + r.carriedKeys())
                    .put(p + "tainted_carried_left_out", r.taintedCarried())
                    .put(p + "cluster_failovers", r.window().failovers())
                    .putRatio(p + "v2_ratio", r.window().v2Ratio());
        }
        List<String> problems = admin.problems();
        for (int i = 0; i < problems.size(); i++) {
            summary.put("problem_" + (i + 1), problems.get(i));
        }
        timeline.failureReasons().forEach((reason, n) -> summary.put("failed[" + reason + "]", n));
        summary.write(settings.out().resolve("summary.csv"));
        summary.print();
    }
}
