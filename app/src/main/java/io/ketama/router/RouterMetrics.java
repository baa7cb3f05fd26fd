package io.ketama.router;

import io.ketama.core.EnumLabels;
import io.ketama.quarkus.ForwardOutcomes;
import io.ketama.router.serving.BodyBudget;
import io.ketama.router.serving.CacheStatus;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.forwarding.Forwarder;
import io.ketama.router.hot.HotKeys;
import io.ketama.router.hot.NearCache;
import io.ketama.router.load.LoadBoard;
import io.ketama.router.load.OwnerLoad;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The service's own meters, registered at start-up so {@code /q/metrics} lists them from the first
 * scrape: {@code ketama_router_requests_total{cache, served}}, {@code ketama_router_failovers_total},
 * {@code ketama_router_forward_timeouts_total}; each target member's forward guard ({@link GuardMeters});
 * the local cache through Micrometer's Caffeine binder ({@code cache_size}, {@code cache_gets_total{result}},
 * {@code cache_puts_total}, {@code cache_evictions_total}, ... tagged {@code cache="ketama-router"}),
 * plus what the binder has no meter for: {@code ketama_router_cache_bytes} (the weighted size its
 * bound counts) and {@code ketama_router_cache_max_bytes}; admission's
 * {@code ketama_router_admission_in_flight}, {@code _max_in_flight} and {@code _refused_total}, and
 * beside them the bytes of the bodies those requests hold, {@code ketama_router_admission_buffered_bytes}
 * and {@code _max_buffered_bytes} (named as their key, {@code ketama.router.admission.max-buffered-bytes}).
 */
@Startup
@Singleton
class RouterMetrics implements ForwardOutcomes {

    /** The {@code cache} tag of the local cache's meters. */
    static final String CACHE_NAME = "ketama-router";
    /** The {@code cache} tag of the near copies' meters. */
    static final String NEAR_CACHE_NAME = "ketama-router-near";

    // Counted in plain adders that the registry reads when scraped (function counters): a request
    // pays one LongAdder increment instead of a composite counter's walk over its registries.
    private final Map<CacheStatus, LongAdder> local = new EnumMap<>(CacheStatus.class);
    private final Map<CacheStatus, LongAdder> forwarded = new EnumMap<>(CacheStatus.class);
    private final LongAdder failovers = new LongAdder();
    /** Forwards tried and failed, for the migration ramp's brake (ForwardOutcomes). */
    private final LongAdder forwards = new LongAdder();
    private final LongAdder failedForwards = new LongAdder();
    /** Answers to requests entering here that a later candidate served because the owner was past its bound. */
    private final LongAdder spilledAnswers = new LongAdder();

    RouterMetrics(MeterRegistry registry, Forwarder forwarder, OwnerLoad ownerLoad, LoadBoard loadBoard, HotKeys hotKeys,
                  NearCache near, LocalCache cache, BodyBudget budget, CacheAdmission admission) {
        for (CacheStatus status : CacheStatus.values()) {
            local.put(status, requests(registry, status, "local"));
            // a bypass is always this member's own fetch, a near copy its own answer
            if (status != CacheStatus.BYPASS && status != CacheStatus.NEAR) {
                forwarded.put(status, requests(registry, status, "forwarded"));
            }
        }
        FunctionCounter.builder("ketama.router.failovers", failovers, LongAdder::sum)
                .description("Candidate members that failed to serve a key before another served it")
                .register(registry);
        FunctionCounter.builder("ketama.router.forward.timeouts", forwarder, Forwarder::timedOut)
                .description("Forward attempts to other members that got no answer within ketama.router.forward.timeout")
                .register(registry);
        forwarder.watchGuards(new GuardMeters(registry));
        FunctionCounter.builder("ketama.router.spilled", ownerLoad, OwnerLoad::spilled)
                .description("Requests this member, as their key's server past its bound, spilled to the key's next candidate")
                .register(registry);
        FunctionCounter.builder("ketama.router.spilled.answers", spilledAnswers, LongAdder::sum)
                .description("Answers to requests entering this member that the key's next candidate served because the "
                        + "owner was past its bound")
                .register(registry);
        Gauge.builder("ketama.router.admission.in.flight", admission, CacheAdmission::inFlight)
                .description("/cache/ requests this member works on now").register(registry);
        Gauge.builder("ketama.router.admission.max.in.flight", admission, CacheAdmission::maxInFlight)
                .description("/cache/ requests this member works on at most; past it, 503").register(registry);
        FunctionCounter.builder("ketama.router.admission.refused", admission, CacheAdmission::refused)
                .description("/cache/ requests answered 503 at once because this member had its limit under way")
                .register(registry);
        Gauge.builder("ketama.router.cache.bytes", cache, LocalCache::weightedBytes)
                .description("Bytes held by this member's cache, as its bound counts them").baseUnit("bytes").register(registry);
        CaffeineCacheMetrics.monitor(registry, cache.caffeine(), CACHE_NAME);
        Gauge.builder("ketama.router.cache.max.bytes", cache, LocalCache::maxBytes)
                .description("Bound of this member's cache").baseUnit("bytes").register(registry);
        loadMeters(registry, ownerLoad, loadBoard, hotKeys);
        if (near != null) {
            Gauge.builder("ketama.router.near.cache.bytes", near, NearCache::weightedBytes)
                    .description("Bytes held by this member's near copies of hot keys, as their bound counts them")
                    .baseUnit("bytes").register(registry);
            Gauge.builder("ketama.router.near.cache.max.bytes", near, NearCache::maxBytes)
                    .description("Bound of this member's near copies (ketama.router.near-cache.max-bytes)")
                    .baseUnit("bytes").register(registry);
            CaffeineCacheMetrics.monitor(registry, near.caffeine(), NEAR_CACHE_NAME);
        }
        Gauge.builder("ketama.router.admission.buffered.bytes", budget, BodyBudget::usedBytes)
                .description("Bytes of the bodies this member receives and holds now (origin answers being fetched, "
                        + "other members' replies to its forwards until written to the client)")
                .baseUnit("bytes").register(registry);
        Gauge.builder("ketama.router.admission.max.buffered.bytes", budget, BodyBudget::maxBytes)
                .description("Bytes of received bodies this member may hold together "
                        + "(ketama.router.admission.max-buffered-bytes); past it, 503").baseUnit("bytes").register(registry);
    }

    /**
     * Bounded loads and hot keys: {@code ketama_router_load_served_total} (answers this member served as a
     * key's candidate), {@code ketama_router_load_rate} (a second, in its last window),
     * {@code ketama_router_load_bound_rate} (what it may serve a second now; NaN while it has no bound),
     * {@code ketama_router_load_cluster_rate} and {@code _mean_rate} (the cluster's, and a member of
     * weight 1's mean, as it read the board), {@code ketama_router_hot_keys} (keys listed as hot) and
     * {@code ketama_router_hot_key_rate} (the heaviest one's rate into this member).
     */
    private static void loadMeters(MeterRegistry registry, io.ketama.router.load.OwnerLoad load, io.ketama.router.load.LoadBoard board,
                                   io.ketama.router.hot.HotKeys hot) {
        FunctionCounter.builder("ketama.router.load.served", load, io.ketama.router.load.OwnerLoad::served)
                .description("Answers this member served as a key's candidate (its own keys entering here, forwards it took)")
                .register(registry);
        Gauge.builder("ketama.router.load.rate", board, b -> {
                    io.ketama.router.load.MemberLoad m = b.view().local();
                    return m == null ? 0 : m.rate();
                })
                .description("Answers this member served a second in its last bounded-load window").register(registry);
        Gauge.builder("ketama.router.load.bound.rate", load, l -> l.hardBound() == Long.MAX_VALUE ? Double.NaN
                        : l.hardBound() * 1e9 / l.settings().window().toNanos())
                .description("Answers a second this member may serve now before it spills (NaN: no bound)").register(registry);
        Gauge.builder("ketama.router.load.cluster.rate", board, b -> b.view().clusterRate())
                .description("Answers all members served a second, as this member last read the load board").register(registry);
        Gauge.builder("ketama.router.load.mean.rate", board, b -> b.view().meanRate())
                .description("Answers a second a member of weight 1 serves on average (the cluster's rate over its weight)")
                .register(registry);
        Gauge.builder("ketama.router.hot.keys", hot, h -> h.top().size())
                .description("Keys this member counts as hot (at least ketama.router.hot-keys.min-requests in its window)")
                .register(registry);
        Gauge.builder("ketama.router.hot.key.rate", hot, h -> {
                    var top = h.top();
                    return top.isEmpty() ? 0 : top.get(0).rate();
                })
                .description("Requests a second entering this member for its heaviest key").register(registry);
    }

    private static LongAdder requests(MeterRegistry registry, CacheStatus status, String served) {
        LongAdder count = new LongAdder();
        FunctionCounter.builder("ketama.router.requests", count, LongAdder::sum)
                .description("Keys answered, by how the serving member had them and whether it was this member")
                .tag("cache", EnumLabels.label(status))
                .tag("served", served)
                .register(registry);
        return count;
    }

    void served(CacheStatus status, boolean wasForwarded, int failedCandidates) {
        (wasForwarded ? forwarded : local).get(status).increment();
        if (failedCandidates > 0) {
            failovers.add(failedCandidates);
            failedForwards.add(failedCandidates);
        }
        int tried = failedCandidates + (wasForwarded ? 1 : 0); // every failed candidate was a forward
        if (tried > 0) { // a local hit adds nothing: no write to the shared adder
            forwards.add(tried);
        }
    }

    /** An answer a later candidate served because the owner spilled the key. */
    void spilled() {
        spilledAnswers.increment();
    }

    @Override
    public long forwards() {
        return forwards.sum();
    }

    @Override
    public long failedForwards() {
        return failedForwards.sum();
    }
}
