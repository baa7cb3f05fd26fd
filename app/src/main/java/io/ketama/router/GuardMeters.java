package io.ketama.router;

import io.ketama.router.forwarding.Forwarder;
import io.ketama.router.forwarding.GuardCounts;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Each target member's forward guard as meters tagged {@code member="host:port"}, registered with
 * the guard (at the first forward to the member) and removed when the member leaves:
 * {@code ketama_router_forward_calls_total{result="answered"|"failed"|"spilled"}} (forwards, after
 * retries; spilled: the member was past its bound and the key went to its next candidate),
 * {@code _retries_total}, {@code _in_flight} and {@code _waiting} (its bulkhead now),
 * {@code _busy_total} (refused by its bulkhead), {@code _breaker_open} (1 while its circuit breaker
 * refuses forwards), {@code _breaker_opened_total} and {@code _breaker_refused_total}.
 *
 * <p>Each of them is also there from start-up with {@code member="none"} ({@link #NO_MEMBER}), always
 * 0, every forward being counted under its target: a member alone in its cluster, or one that has not
 * forwarded yet, still shows every metric the dashboard and the alerts read, so a {@code rate()} has a
 * series to work on (issue 40). ({@code none}, as {@code ketama_selections_total{member="none"}}: no
 * address is that text.)
 */
final class GuardMeters implements Forwarder.GuardWatcher {

    private final MeterRegistry registry;
    /** By member address: a member that left and came back under the same address gets fresh meters. */
    private final Map<String, Registered> byMember = new HashMap<>();

    /** The guard of no member: the zero series registered at start-up. */
    static final GuardCounts NO_MEMBER = new GuardCounts() {
        @Override public String member() { return "none"; }
        @Override public int inFlight() { return 0; }
        @Override public int waiting() { return 0; }
        @Override public long busy() { return 0; }
        @Override public boolean breakerOpen() { return false; }
        @Override public long breakerOpened() { return 0; }
        @Override public long breakerRefused() { return 0; }
        @Override public long retries() { return 0; }
        @Override public long answered() { return 0; }
        @Override public long failed() { return 0; }
        @Override public long spilled() { return 0; }
    };

    /** Registers the meters of {@link #NO_MEMBER} at once. */
    GuardMeters(MeterRegistry registry) {
        this.registry = registry;
        made(NO_MEMBER);
    }

    private record Registered(GuardCounts guard, List<Meter> meters) {
    }

    @Override
    public synchronized void made(GuardCounts guard) {
        Registered before = byMember.get(guard.member());
        if (before != null && before.guard() == guard) {
            return;
        }
        if (before != null) {
            before.meters().forEach(registry::remove);
        }
        Tags member = Tags.of("member", guard.member());
        byMember.put(guard.member(), new Registered(guard, List.of(
                counter("ketama.router.forward.calls", guard, GuardCounts::answered, member.and("result", "answered"),
                        "Forwards to another member, by how they ended after any retries"),
                counter("ketama.router.forward.calls", guard, GuardCounts::failed, member.and("result", "failed"),
                        "Forwards to another member, by how they ended after any retries"),
                counter("ketama.router.forward.calls", guard, GuardCounts::spilled, member.and("result", "spilled"),
                        "Forwards to another member, by how they ended after any retries"),
                counter("ketama.router.forward.retries", guard, GuardCounts::retries, member,
                        "Further attempts at a member after a failed forward"),
                counter("ketama.router.forward.busy", guard, GuardCounts::busy, member,
                        "Forwards refused at once because the member had ketama.router.forward.bulkhead.max-in-flight "
                                + "under way and max-waiting waiting"),
                counter("ketama.router.forward.breaker.opened", guard, GuardCounts::breakerOpened, member,
                        "Times the member's circuit breaker opened"),
                counter("ketama.router.forward.breaker.refused", guard, GuardCounts::breakerRefused, member,
                        "Forwards the member's open circuit breaker refused"),
                gauge("ketama.router.forward.in.flight", guard, GuardCounts::inFlight, member,
                        "Forwards to the member under way now"),
                gauge("ketama.router.forward.waiting", guard, GuardCounts::waiting, member,
                        "Forwards to the member waiting for a slot now"),
                gauge("ketama.router.forward.breaker.open", guard, g -> g.breakerOpen() ? 1 : 0, member,
                        "1 while the member's circuit breaker refuses forwards, else 0"))));
    }

    @Override
    public synchronized void dropped(GuardCounts guard) {
        Registered registered = byMember.get(guard.member());
        if (registered != null && registered.guard() == guard) {
            byMember.remove(guard.member());
            registered.meters().forEach(registry::remove);
        }
    }

    private Meter counter(String name, GuardCounts guard, ToDoubleFunction<GuardCounts> count, Tags tags, String description) {
        return FunctionCounter.builder(name, guard, count).tags(tags).description(description).register(registry);
    }

    private Meter gauge(String name, GuardCounts guard, ToDoubleFunction<GuardCounts> value, Tags tags, String description) {
        return Gauge.builder(name, guard, value).tags(tags).description(description).register(registry);
    }
}
