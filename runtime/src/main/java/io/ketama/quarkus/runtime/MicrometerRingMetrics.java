package io.ketama.quarkus.runtime;

import io.ketama.core.RingVersion;
import io.ketama.quarkus.MemberInfo;
import io.ketama.quarkus.MigrationState;
import io.ketama.quarkus.RingSnapshot;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The extension's Micrometer meters; a bean only when the application has Micrometer and
 * {@code quarkus.ketama.metrics.enabled} is true. Everything except the per-member selection
 * counters is registered by {@link #bind}, at start-up; per-member counters are registered when a
 * rebuild brings a member in and removed when one takes it out, and handed to the lookup path
 * pre-resolved ({@link #counts}), so a selection never looks a meter up by tags.
 *
 * <p>The build steps register it by name ({@link RegisteredClasses}).
 */
@Singleton
class MicrometerRingMetrics implements RingMetrics {

    static final String NONE = "none";

    private final MeterRegistry registry;
    /** Selections by {@code "<version> <member>"}: plain adders the registry reads when scraped. */
    private final Map<String, Selections> memberCounters = new HashMap<>();
    private Timer rebuilds;
    private Counter shadowSelections;
    private Counter shadowDisagreements;
    private Counter exclusions;
    private LongAdder[] unresolved;
    private List<LongSupplier> rampCounts;
    private final Map<MigrationState.Origin, Counter> migrationChanges = new java.util.EnumMap<>(MigrationState.Origin.class);
    private RingShares shares;

    @Inject
    MicrometerRingMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void bind(Supplier<RingSnapshot> snapshot) {
        rebuilds = Timer.builder("ketama.rebuilds").description("Ring rebuilds and how long they took").register(registry);
        shadowSelections = Counter.builder("ketama.shadow.selections")
                .description("Selections also computed on the other ring (shadow mode)").register(registry);
        shadowDisagreements = Counter.builder("ketama.shadow.disagreements")
                .description("Shadow selections where the other ring chose another member: keys a switch would move")
                .register(registry);
        for (MigrationState.Origin origin : MigrationState.Origin.values()) {
            // registered at start-up, so every origin shows 0 before its first change
            migrationChanges.put(origin, Counter.builder("ketama.migration.changes").tag("origin", origin.label())
                    .description("Changes of the cluster's migration state this member made, by who asked: configuration "
                            + "(a rollout), admin, ramp, application")
                    .register(registry));
        }
        exclusions = Counter.builder("ketama.members.exclusions")
                .description("Members left out of the rings for a malformed attribute or a duplicate identity, once per member")
                .register(registry);
        unresolved = new LongAdder[RingVersion.values().length];
        for (RingVersion v : RingVersion.values()) {
            unresolved[v.ordinal()] = selectionCounter(v, NONE).count();
            Gauge.builder("ketama.ring.points", snapshot, s -> s.get().rings().get(v).points())
                    .tag("version", v.label()).description("Points on the ring").strongReference(true).register(registry);
            Gauge.builder("ketama.ring.bytes", snapshot, s -> s.get().rings().get(v).bytes())
                    .tag("version", v.label()).baseUnit("bytes").description("Bytes the ring's points retain")
                    .strongReference(true).register(registry);
            Gauge.builder("ketama.ring.feature", snapshot, s -> s.get().featureRings(v).retainedBytes() - s.get().featureRings(v).ring().retainedBytes())
                    .tag("version", v.label()).baseUnit("bytes")
                    .description("Bytes feature-constrained lookups add to the ring (masks, plans, materialised rings)")
                    .strongReference(true).register(registry);
            Gauge.builder("ketama.ring.share.cov", snapshot, s -> cov(s.get().rings().get(v).coefficientOfVariation()))
                    .tag("version", v.label())
                    .description("Coefficient of variation of the members' circle shares over their weight shares (0 = perfect balance)")
                    .strongReference(true).register(registry);
        }
        shares = new RingShares(snapshot);
        Gauge.builder("ketama.members.local", snapshot, s -> s.get().containsLocalMember() ? 1 : 0)
                .description("1 while this member is on its own rings (it serves keys), else 0").strongReference(true).register(registry);
        Gauge.builder("ketama.members", snapshot, s -> s.get().members().size())
                .description("Members on the rings").strongReference(true).register(registry);
        Gauge.builder("ketama.members.excluded", snapshot, s -> s.get().excluded().size())
                .description("Cluster members left out of the rings").strongReference(true).register(registry);
        Gauge.builder("ketama.ring.generation", snapshot, s -> s.get().generation())
                .description("Rebuilds since start-up").strongReference(true).register(registry);
    }

    @Override
    public void bindMigration(String member, Supplier<MigrationState> applied, Supplier<MigrationSplit> split,
                              LongSupplier rampSteps, LongSupplier rampHolds, LongSupplier rampRollbacks) {
        // Tagged with the member, so that the values of several members stay apart wherever they are gathered.
        Gauge.builder("ketama.migration.generation", applied, s -> s.get().generation())
                .tag("member", member)
                .description("Generation of the cluster's migration state this member applies (the same on every member once a change has spread)")
                .strongReference(true).register(registry);
        // A 0-1 ratio, as Prometheus names it (ketama_migration_v2_share_ratio), not the configured percentage.
        Gauge.builder("ketama.migration.v2.share", split, m -> m.get().v2Percent() / 100)
                .tag("member", member)
                .baseUnit("ratio").description("Share of keys this member routes through the v2 ring, 0 to 1")
                .strongReference(true).register(registry);
        // function counters hold their object weakly: keep the suppliers alive as long as this bean
        rampCounts = List.of(rampSteps, rampHolds, rampRollbacks);
        FunctionCounter.builder("ketama.ramp.steps", rampSteps, LongSupplier::getAsLong)
                .description("Steps of migration ramps this member drove").register(registry);
        FunctionCounter.builder("ketama.ramp.holds", rampHolds, LongSupplier::getAsLong)
                .description("Times a ramp driven by this member was held by its brake").register(registry);
        FunctionCounter.builder("ketama.ramp.rollbacks", rampRollbacks, LongSupplier::getAsLong)
                .description("Times a ramp driven by this member was rolled back by its brake").register(registry);
    }

    @Override
    public void bindQuorum(Supplier<MigrationQuorum.Status> quorum) {
        // issue 40: an operator sees a member below its quorum (a partition's smaller side, failed
        // members still counted) before a change is refused
        Gauge.builder("ketama.quorum.expected.members", quorum, q -> q.get().expected())
                .description("Members the cluster expects: those that joined, less those that left by a graceful stop "
                        + "(a member dropped by failure still counts)")
                .strongReference(true).register(registry);
        Gauge.builder("ketama.quorum.seen.members", quorum, q -> q.get().seen())
                .description("Of those, the members this member sees in the cluster now (with min-members set: every member it sees)")
                .strongReference(true).register(registry);
        Gauge.builder("ketama.quorum.required.members", quorum, q -> q.get().required())
                .description("Members a migration change needs: a majority of the expected members, or quarkus.ketama.migration.min-members")
                .strongReference(true).register(registry);
        Gauge.builder("ketama.quorum.refusing", quorum, q -> q.get().refusing() ? 1 : 0)
                .description("1 while this member would refuse a migration change for too few members (503 too-few-members), else 0")
                .strongReference(true).register(registry);
    }

    @Override
    public void bindClientConnected(java.util.function.BooleanSupplier connected) {
        // issue 39: a client that lost the cluster keeps routing by its last rings; an operator sees it
        Gauge.builder("ketama.client.connected", connected, c -> c.getAsBoolean() ? 1 : 0)
                .description("1 while this Hazelcast client is connected to the cluster, 0 while it routes by the last rings it built")
                .strongReference(true).register(registry);
    }

    /** Registers counters of new members and removes those of members that left. */
    @Override
    public SelectionCounts counts(RingSnapshot snapshot) {
        List<MemberInfo> members = snapshot.members();
        LongAdder[][] out = new LongAdder[RingVersion.values().length][members.size()];
        Map<String, Selections> kept = new HashMap<>();
        for (RingVersion v : RingVersion.values()) {
            for (int i = 0; i < members.size(); i++) {
                String member = members.get(i).identity();
                String key = v.label() + ' ' + member;
                Selections c = memberCounters.get(key);
                if (c == null) {
                    c = selectionCounter(v, member);
                }
                if (c.share() == null && shares != null) {
                    c = new Selections(c.count(), c.meter(), shareGauge(v, member));
                }
                kept.put(key, c);
                out[v.ordinal()][i] = c.count();
            }
        }
        for (Map.Entry<String, Selections> e : memberCounters.entrySet()) {
            if (!kept.containsKey(e.getKey())) {
                registry.remove(e.getValue().meter());
                if (e.getValue().share() != null) {
                    registry.remove(e.getValue().share());
                }
            }
        }
        memberCounters.clear();
        memberCounters.putAll(kept);
        LongAdder[] none = unresolved;
        return (version, index) -> (index < 0 ? none[version.ordinal()] : out[version.ordinal()][index]).increment();
    }

    /**
     * One member's selections on one ring version. A function counter over an adder: a selection
     * (every request) pays one adder increment, not a composite counter's walk over its registries;
     * the registry holds the adder weakly, this record keeps it.
     */
    private record Selections(LongAdder count, Meter meter, Meter share) {
    }

    private Meter shareGauge(RingVersion version, String member) {
        RingShares from = shares;
        return Gauge.builder("ketama.ring.share", from, s -> s.ratio(version, member))
                .tags(Tags.of("version", version.label(), "member", member)).baseUnit("ratio")
                .description("The member's share of the circle divided by its share of the total weight (1 = its fair part)")
                .strongReference(true).register(registry);
    }

    private static double cov(double cov) {
        return Double.isFinite(cov) ? cov : 0;
    }

    private Selections selectionCounter(RingVersion version, String member) {
        LongAdder count = new LongAdder();
        Meter meter = FunctionCounter.builder("ketama.selections", count, LongAdder::sum)
                .description("Keys selected, by ring version and owning member ('none': no member qualified)")
                .tags(Tags.of("version", version.label(), "member", member))
                .register(registry);
        return new Selections(count, meter, null);
    }

    @Override
    public void rebuilt(Duration took) {
        rebuilds.record(took);
    }

    @Override
    public void shadow(boolean disagreed) {
        shadowSelections.increment();
        if (disagreed) {
            shadowDisagreements.increment();
        }
    }

    @Override
    public void memberExcluded() {
        exclusions.increment();
    }

    @Override
    public void migrationChanged(MigrationState.Origin origin) {
        Counter c = migrationChanges.get(origin);
        if (c != null) {
            c.increment();
        }
    }
}
