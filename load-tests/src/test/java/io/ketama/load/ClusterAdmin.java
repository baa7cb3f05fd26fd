package io.ketama.load;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.foreach;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.ChainBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * Gatling chains that operate the cluster rather than load it: read the shadow counters of every
 * member, set the migration share on every member, probe readiness. A failed admin call is noted
 * (see {@link #problems()}) and the run goes on, so one bad member does not hide the others' data.
 */
final class ClusterAdmin {

    private final List<Integer> ports;
    private final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();

    ClusterAdmin(List<Integer> ports) {
        this.ports = List.copyOf(ports);
    }

    /** What went wrong in admin calls, in order. */
    List<String> problems() {
        return List.copyOf(problems);
    }

    /**
     * Reads {@code /q/metrics} on every member and hands the summed shadow counters to
     * {@code sink} ({@link ShadowCounters#UNKNOWN} when any member's metrics could not be read).
     */
    ChainBuilder readShadowCounters(MigrationPlan plan, Consumer<ShadowCounters> sink) {
        return exec(s -> s.set("shadowSum", ShadowCounters.ZERO))
                .foreach(ports, "adminPort").on(
                        exec(s -> s.remove("metrics"))
                                .exec(http("GET /q/metrics")
                                        .get(s -> LoadSettings.baseUrl(s.getInt("adminPort")) + "/q/metrics")
                                        .check(status().is(200), bodyString().saveAs("metrics")))
                                .exec(s -> {
                                    ShadowCounters sum = s.get("shadowSum");
                                    ShadowCounters member = ShadowCounters.UNKNOWN;
                                    if (s.contains("metrics")) {
                                        String text = s.getString("metrics");
                                        member = new ShadowCounters(PrometheusText.sum(text, plan.disagreementsMetric()),
                                                PrometheusText.sumFirstPresent(text, plan.selectionsMetrics()));
                                    }
                                    if (Double.isNaN(member.disagreements()) || Double.isNaN(member.selections())) {
                                        problems.add("no " + plan.disagreementsMetric() + " or none of " + plan.selectionsMetrics()
                                                + " in /q/metrics of port " + s.getInt("adminPort"));
                                    }
                                    return s.markAsSucceeded().set("shadowSum", sum.plus(member)).remove("metrics");
                                }))
                .exec(s -> {
                    sink.accept(s.get("shadowSum"));
                    return s;
                });
    }

    /** {@code PUT /admin/migration} with split mode, {@code sharePercent} and shadow on, on every member. */
    ChainBuilder setShare(int sharePercent) {
        return foreach(ports, "adminPort").on(
                exec(s -> s.remove("adminStatus"))
                        .exec(http("PUT /admin/migration " + sharePercent + "%")
                                .put(s -> LoadSettings.baseUrl(s.getInt("adminPort")) + "/admin/migration")
                                .body(StringBody(MigrationPlan.migrationBody(sharePercent))).asJson()
                                .check(status().saveAs("adminStatus"), status().in(200, 201, 202, 204)))
                        .exec(s -> {
                            if (s.isFailed()) {
                                problems.add("PUT /admin/migration " + sharePercent + "% on port " + s.getInt("adminPort")
                                        + " failed: " + (s.contains("adminStatus") ? "HTTP " + s.getInt("adminStatus") : "no response"));
                            }
                            return s.markAsSucceeded();
                        }));
    }

    /**
     * Like a load balancer's health check: every second for {@code seconds}, {@code GET
     * /q/health/ready} on every port of {@code pool}, taking members in or out of service. A
     * killed member leaves service within about a second; a new one enters once it is ready.
     */
    static ChainBuilder probeReadiness(MemberPool pool, int seconds) {
        return during(Duration.ofSeconds(seconds)).on(
                foreach(pool.ports(), "probePort").on(
                                exec(http("GET /q/health/ready")
                                        .get(s -> LoadSettings.baseUrl(s.getInt("probePort")) + "/q/health/ready")
                                        .check(status().is(200)))
                                .exec(s -> {
                                    pool.setReady(s.getInt("probePort"), !s.isFailed());
                                    return s.markAsSucceeded();
                                }))
                        .pause(Duration.ofSeconds(1)));
    }
}
