package io.ketama.load;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.util.List;
import java.util.Locale;

/**
 * Scenario (a): a constant arrival rate of {@code GET /cache/{key}} with Zipf-distributed keys,
 * spread round-robin over the members. Reports the hit ratio, latency percentiles and errors over
 * the whole run and over its second half (caches warm), per second as CSV and PNG.
 *
 * <p>Properties: see {@link LoadSettings}; output in {@code load.out} (default
 * {@code target/load-results/steady}).
 */
public class SteadyLoadSimulation extends Simulation {

    private final LoadSettings settings = LoadSettings.fromSystemProperties("steady");
    private final Timeline timeline = new Timeline(System.currentTimeMillis(), settings.seconds() + 120);
    private final MemberPool pool = new MemberPool(settings.ports(), List.of());

    {
        ScenarioBuilder load = scenario("steady Zipf load")
                .feed(new ZipfKeys(settings.keys(), settings.zipfExponent(), settings.seed()))
                .exec(CacheRequests.chain(pool, settings.attempts(), RequestLog.of(timeline)));
        setUp(WarmUp.with(settings, pool,
                load.injectOpen(WarmUp.after(settings, constantUsersPerSec(settings.rate()).during(settings.seconds())))))
                .protocols(Protocols.loopback());
    }

    @Override
    public void before() {
        timeline.startAt(WarmUp.measuredStart(settings));
    }

    @Override
    public void after() {
        List<TimelineRow> rows = timeline.rows();
        int end = rows.size();
        int half = settings.seconds() / 2;
        TimelineRow all = timeline.window(0, end);
        TimelineRow warm = timeline.window(half, end);
        // What one ideal cache would hit on the same key sequence: arrivals are evenly spaced, so
        // second s holds requests s·rate+1 … (s+1)·rate.
        ZipfKeys theory = new ZipfKeys(settings.keys(), settings.zipfExponent(), settings.seed());
        long rate = Math.round(settings.rate());
        double[] ideal = new double[end];
        for (int s = 0; s < end; s++) {
            ideal[s] = s < settings.seconds() ? theory.idealHitRatio(s * rate + 1, (s + 1) * rate + 1) : Double.NaN;
        }
        long total = (long) settings.seconds() * rate;
        Summary summary = new Summary("steady")
                .put("members", settings.ports())
                .put("rate_per_s", settings.rate())
                .put("seconds", settings.seconds())
                .put("keys", settings.keys())
                .put("zipf_exponent", settings.zipfExponent())
                .putWindow("all_", all)
                .putRatio("all_ideal_single_cache_hit_ratio", theory.idealHitRatio(1, total + 1))
                .put("warm_from_second", half)
                .putWindow("warm_", warm)
                .putRatio("warm_ideal_single_cache_hit_ratio", theory.idealHitRatio(half * rate + 1, total + 1));
        timeline.failureReasons().forEach((reason, n) -> summary.put("failed[" + reason + "]", n));
        summary.write(settings.out().resolve("summary.csv"));
        summary.print();
        TimelineCsv.write(settings.out().resolve("timeline.csv"), timeline.startMillis(), rows);
        TimelineChart.render("Steady Zipf load: " + settings.ports().size() + " members",
                String.format(Locale.ROOT,
                        "%.0f req/s for %d s, %d keys, Zipf s=%.2f; overall hit ratio %.1f%%, second half %.1f%%; p50/p95/p99 %d/%d/%d ms; %d errors",
                        settings.rate(), settings.seconds(), settings.keys(), settings.zipfExponent(),
                        100 * all.hitRatio(), 100 * warm.hitRatio(), all.p50(), all.p95(), all.p99(), all.errors()),
                rows, List.of(new Marker(half, "second half (warm)")), ideal, "one ideal cache (theory)",
                settings.out().resolve("timeline.png"));
    }
}
