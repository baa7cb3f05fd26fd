package io.ketama.load;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Scenario (c): a constant Zipf load while run.sh kills one member with {@code kill -9} and
 * starts another. The client behaves like a load balancer with a one-second readiness probe and
 * up to {@code load.attempts} tries per request on successive members. Reports the errors the
 * client saw (before and after the cluster dropped the dead member), the attempts that failed and
 * were retried, and how long the hit ratio took to come back after the kill and after the join.
 *
 * <p>Extra properties: {@code load.events}, the events file run.sh writes (see {@link ChurnEvent}).
 */
public class ChurnSimulation extends Simulation {

    private static final int BASELINE_SECONDS = 10;
    /** Hit ratios are compared over 5 s (500 requests at 100/s: about ±2 points of noise). */
    private static final int RECOVERY_WINDOW = 5;
    private static final double RECOVERY_TOLERANCE = 0.03;
    /** A dip must begin this soon after its event to count as its effect. */
    private static final int DIP_HORIZON = 10;

    private final LoadSettings settings = LoadSettings.fromSystemProperties("churn");
    private final String eventsFile = Props.system().optional("load.events");
    private final Timeline timeline = new Timeline(System.currentTimeMillis(), settings.seconds() + 120);
    private final MemberPool pool = new MemberPool(settings.ports(), settings.standbyPorts());

    {
        ScenarioBuilder load = scenario("Zipf load under churn")
                .feed(new ZipfKeys(settings.keys(), settings.zipfExponent(), settings.seed()))
                .exec(CacheRequests.chain(pool, settings.attempts(), RequestLog.of(timeline)));
        ScenarioBuilder probe = scenario("readiness probe")
                .exec(ClusterAdmin.probeReadiness(pool, settings.jvmWarmupSeconds() + settings.seconds()));
        setUp(WarmUp.with(settings, pool,
                load.injectOpen(WarmUp.after(settings, constantUsersPerSec(settings.rate()).during(settings.seconds()))),
                probe.injectOpen(atOnceUsers(1))))
                .protocols(Protocols.loopback());
    }

    @Override
    public void before() {
        long start = WarmUp.measuredStart(settings);
        timeline.startAt(start);
        if (eventsFile != null) {
            // run.sh schedules the kill from the time on this line: when the measured load begins.
            ChurnEvent.append(Path.of(eventsFile), new ChurnEvent(start, ChurnEvent.LOAD_START, "measured load begins"));
        }
    }

    @Override
    public void after() {
        List<TimelineRow> rows = timeline.rows();
        int end = rows.size();
        List<ChurnEvent> events = ChurnEvent.read(eventsFile == null ? null : Path.of(eventsFile));
        List<Marker> markers = new ArrayList<>();
        for (ChurnEvent e : events) {
            if (e.label().equals(ChurnEvent.LOAD_START)) {
                continue;
            }
            markers.add(new Marker((e.epochMillis() - timeline.startMillis()) / 1000.0, e.label()));
        }

        Summary summary = new Summary("churn")
                .put("members", settings.ports())
                .put("standby", settings.standbyPorts())
                .put("rate_per_s", settings.rate())
                .put("seconds", settings.seconds())
                .put("keys", settings.keys())
                .put("attempts_per_request", settings.attempts())
                .putWindow("all_", timeline.window(0, end));
        Optional<ChurnEvent> kill = ChurnEvent.first(events, "kill");
        String headline = "no kill event recorded";
        if (kill.isPresent()) {
            int killSecond = timeline.secondOf(kill.get().epochMillis());
            double baseline = timeline.window(killSecond - BASELINE_SECONDS, killSecond).hitRatio();
            int removed = secondOf(events, "removed", end);
            int start = secondOf(events, "start", end);
            int joined = secondOf(events, "joined", end);
            summary.put("kill_second", killSecond)
                    .putRatio("baseline_hit_ratio_" + BASELINE_SECONDS + "s_before_kill", baseline)
                    .putWindow("before_kill_", timeline.window(0, killSecond))
                    .putWindow("kill_to_removed_", timeline.window(killSecond, removed))
                    .putWindow("after_removed_", timeline.window(removed, end))
                    .putRatio("lowest_hit_ratio_after_kill", Recovery.lowest(rows, killSecond, Math.min(end, start)));
            millisBetween(events, "kill", "removed").ifPresent(ms -> summary.put("ms_kill_to_removed_from_ring", ms));
            millisBetween(events, "start", "ready").ifPresent(ms -> summary.put("ms_start_to_ready", ms));
            millisBetween(events, "start", "joined").ifPresent(ms -> summary.put("ms_start_to_joined_ring", ms));
            int afterKill = Recovery.seconds(timeline, killSecond, baseline, RECOVERY_TOLERANCE, RECOVERY_WINDOW,
                    DIP_HORIZON, Math.min(end, start));
            summary.put("hit_ratio_recovery_s_after_kill", afterKill < 0 ? "not before the new member started" : afterKill);
            if (start < end) {
                // The newcomer takes keys from the survivors when it enters the rings, which happens
                // between its JVM start and the moment run.sh sees it in every ring.
                double beforeStart = timeline.window(start - BASELINE_SECONDS, start).hitRatio();
                int horizon = Math.max(DIP_HORIZON, joined < end ? joined - start + DIP_HORIZON : DIP_HORIZON);
                int afterStart = Recovery.seconds(timeline, start, beforeStart, RECOVERY_TOLERANCE, RECOVERY_WINDOW, horizon, end);
                summary.putRatio("baseline_hit_ratio_" + BASELINE_SECONDS + "s_before_start", beforeStart)
                        .put("hit_ratio_recovery_s_after_start", afterStart < 0 ? "not before the run ended" : afterStart)
                        .putRatio("lowest_hit_ratio_after_start", Recovery.lowest(rows, start, end));
            }
            TimelineRow afterRemoved = timeline.window(removed, end);
            headline = String.format(Locale.ROOT,
                    "kill -9 at %d s; client-visible errors: %d before the ring dropped the member, %d after; hit ratio recovered %s after the kill",
                    killSecond, timeline.window(killSecond, removed).errors(), afterRemoved.errors(),
                    afterKill < 0 ? "not before the new member started" : "in " + afterKill + " s");
        }
        timeline.failureReasons().forEach((reason, n) -> summary.put("failed[" + reason + "]", n));
        summary.write(settings.out().resolve("summary.csv"));
        summary.print();
        TimelineCsv.write(settings.out().resolve("timeline.csv"), timeline.startMillis(), rows);
        TimelineChart.render("Churn: kill -9 of one member, another started, under load",
                String.format(Locale.ROOT, "%.0f req/s, %d keys, Zipf s=%.2f, %d tries per request; %s",
                        settings.rate(), settings.keys(), settings.zipfExponent(), settings.attempts(), headline),
                rows, markers, settings.out().resolve("timeline.png"));
    }

    private int secondOf(List<ChurnEvent> events, String label, int otherwise) {
        return ChurnEvent.first(events, label).map(e -> timeline.secondOf(e.epochMillis())).orElse(otherwise);
    }

    private static Optional<Long> millisBetween(List<ChurnEvent> events, String from, String to) {
        Optional<ChurnEvent> a = ChurnEvent.first(events, from);
        Optional<ChurnEvent> b = ChurnEvent.first(events, to);
        return a.isPresent() && b.isPresent() ? Optional.of(b.get().epochMillis() - a.get().epochMillis()) : Optional.empty();
    }
}
