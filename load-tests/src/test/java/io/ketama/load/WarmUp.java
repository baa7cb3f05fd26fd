package io.ketama.load;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.PopulationBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Traffic that only warms the members' JVMs up before the measured load: same rate and member
 * spread, keys {@code warmup-*} that the measured load never asks for, so JIT compilation and
 * connection set-up are done while every cache of measured keys is still empty. Nothing of it is
 * recorded; Gatling's report lists it as {@code GET /cache (warm-up)}.
 */
final class WarmUp {

    static final String KEY_PREFIX = "warmup-";

    private WarmUp() {
    }

    /** The warm-up population, or none when {@code jvmWarmupSeconds} is 0. */
    static Optional<PopulationBuilder> population(LoadSettings settings, MemberPool pool) {
        if (settings.jvmWarmupSeconds() == 0) {
            return Optional.empty();
        }
        return Optional.of(scenario("JVM warm-up")
                .feed(new ZipfKeys(settings.keys(), settings.zipfExponent(), settings.seed() + 1, KEY_PREFIX))
                .exec(CacheRequests.chain(pool, 1, RequestLog.NONE, "GET /cache (warm-up)"))
                .injectOpen(constantUsersPerSec(settings.rate()).during(settings.jvmWarmupSeconds())));
    }

    /** Injection steps that wait for the warm-up to end, then run {@code steps}. */
    static OpenInjectionStep[] after(LoadSettings settings, OpenInjectionStep... steps) {
        List<OpenInjectionStep> all = new ArrayList<>();
        if (settings.jvmWarmupSeconds() > 0) {
            all.add(nothingFor(Duration.ofSeconds(settings.jvmWarmupSeconds())));
        }
        all.addAll(List.of(steps));
        return all.toArray(OpenInjectionStep[]::new);
    }

    /** Epoch millis at which the measured load starts, for a simulation starting now. */
    static long measuredStart(LoadSettings settings) {
        return System.currentTimeMillis() + settings.jvmWarmupSeconds() * 1000L;
    }

    /** The populations to run: the warm-up (if any) first, then {@code measured}. */
    static List<PopulationBuilder> with(LoadSettings settings, MemberPool pool, PopulationBuilder... measured) {
        List<PopulationBuilder> all = new ArrayList<>();
        population(settings, pool).ifPresent(all::add);
        all.addAll(List.of(measured));
        return all;
    }
}
