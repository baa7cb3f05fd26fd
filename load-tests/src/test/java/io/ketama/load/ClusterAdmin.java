package io.ketama.load;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.asLongAs;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
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
 * Gatling chains that operate the cluster rather than load it, on the members' management ports:
 * read the shadow counters of every member ({@code /q/metrics}), set the cluster's migration share
 * with one guarded call ({@code PUT /q/ketama/migration}) and wait until every member applies its
 * generation, probe readiness. A failed admin call is noted (see {@link #problems()}) and the run
 * goes on, so one bad member does not hide the others' data.
 */
final class ClusterAdmin {

    /** Polls of a member's migration generation after a change, 100 ms apart. */
    private static final int APPLY_POLLS = 100;

    private final List<Integer> ports;
    private final String token;
    private final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();

    /**
     * @param managementPorts the members' management ports
     * @param token           the admin token the members were started with
     */
    ClusterAdmin(List<Integer> managementPorts, String token) {
        this.ports = List.copyOf(managementPorts);
        this.token = token;
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

    /**
     * {@code PUT /q/ketama/migration} with split mode, {@code sharePercent} and shadow on, once, on
     * the first member; then, on every member, {@code GET /q/ketama/migration} until it applies the
     * new generation (at most {@value #APPLY_POLLS} polls 100 ms apart).
     */
    ChainBuilder setShare(int sharePercent) {
        return exec(s -> s.remove("adminStatus").remove("generation"))
                .exec(http("PUT /q/ketama/migration " + sharePercent + "%")
                        .put(LoadSettings.baseUrl(ports.get(0)) + "/q/ketama/migration")
                        .header("Authorization", "Bearer " + token)
                        .body(StringBody(MigrationPlan.migrationBody(sharePercent))).asJson()
                        .check(status().saveAs("adminStatus"), status().is(200), jsonPath("$.generation").ofLong().saveAs("generation")))
                .exec(s -> {
                    if (s.isFailed()) {
                        problems.add("PUT /q/ketama/migration " + sharePercent + "% on port " + ports.get(0) + " failed: "
                                + (s.contains("adminStatus") ? "HTTP " + s.getInt("adminStatus") : "no response"));
                    }
                    return s.markAsSucceeded();
                })
                .doIf(s -> s.contains("generation")).then(foreach(ports, "adminPort").on(
                        exec(s -> s.set("applied", 0L).set("polls", 0))
                                .asLongAs(s -> s.getLong("applied") < s.getLong("generation") && s.getInt("polls") < APPLY_POLLS).on(
                                        exec(http("GET /q/ketama/migration")
                                                .get(s -> LoadSettings.baseUrl(s.getInt("adminPort")) + "/q/ketama/migration")
                                                .check(status().is(200), jsonPath("$.generation").ofLong().saveAs("applied")))
                                                .exec(s -> s.markAsSucceeded().set("polls", s.getInt("polls") + 1))
                                                .pause(Duration.ofMillis(100)))
                                .exec(s -> {
                                    if (s.getLong("applied") < s.getLong("generation")) {
                                        problems.add("member on management port " + s.getInt("adminPort") + " did not apply generation "
                                                + s.getLong("generation") + " within " + APPLY_POLLS + " polls");
                                    }
                                    return s;
                                })));
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
