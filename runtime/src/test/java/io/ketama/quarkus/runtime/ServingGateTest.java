package io.ketama.quarkus.runtime;

import com.hazelcast.cluster.Member;
import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.core.Crc32;
import io.ketama.core.HashStyle;
import io.ketama.quarkus.MemberAttributes;
import io.ketama.quarkus.MigrationSettings;
import io.ketama.quarkus.MigrationSource;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.ServingState;
import io.ketama.quarkus.RingsLeft;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static io.ketama.quarkus.runtime.LoopbackMembers.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The serving gate and the drain on real members running the extension's cluster part, under a
 * steady stream of selections on every member. A selection "reaches" its owner at once; the owner
 * can serve only between its start of serving (before it opens the gate) and the end of its drain.
 * A joiner and a gracefully stopped member must never be chosen when they cannot serve: zero
 * failovers.
 */
class ServingGateTest {

    private static final Duration COALESCE = Duration.ofMillis(50);

    private final LoopbackMembers members = new LoopbackMembers("ketama-serving-gate", 5);
    private final List<Running> running = new CopyOnWriteArrayList<>();
    /** Members that can serve now (what a member's key server would say). */
    private final Set<UUID> canServe = ConcurrentHashMap.newKeySet();
    private final AtomicLong selections = new AtomicLong();
    private final List<String> failovers = new CopyOnWriteArrayList<>();
    private final AtomicBoolean load = new AtomicBoolean(true);
    private final Map<Running, Thread> loaders = new ConcurrentHashMap<>();
    /** What ended a load thread other than being told to stop: each one a member no longer checked. */
    private final List<String> loaderFailures = new CopyOnWriteArrayList<>();

    private record Running(HazelcastInstance hz, ClusterRings rings) {
        UUID uuid() {
            return hz.getCluster().getLocalMember().getUuid();
        }
    }

    @AfterEach
    void stop() throws InterruptedException {
        load.set(false);
        for (Thread t : loaders.values()) {
            t.join(30_000);
        }
        running.forEach(r -> r.rings().close());
        members.close();
    }

    /** Starts a gated member running the cluster part; it serves (and opens) only if {@code open}. */
    private Running start(int index, boolean open) {
        HazelcastInstance hz = members.start(index, config -> {
            MemberAttributes.publish(config, 1, Set.of(), "default", null);
            MemberAttributes.gate(config);
            return Hazelcast.newHazelcastInstance(config);
        });
        ClusterRings rings = ClusterRings.startOn(hz, new RingSettings(HashStyle.PINGORA, 16), MigrationSettings.DEFAULT,
                MigrationSource.CLUSTER, COALESCE);
        Running r = new Running(hz, rings);
        running.add(r);
        if (open) {
            canServe.add(r.uuid()); // what serves forwards is in place before the gate opens
            rings.open();
        }
        return r;
    }

    /**
     * One thread per member, selecting random keys as fast as it can and checking each owner can
     * serve. Anything it throws ends it and is recorded, failing the test ({@link #assertLoadersRun}).
     */
    private void loadEvery(Running r) {
        String self = r.hz().getCluster().getLocalMember().getAddress().toString();
        Thread t = new Thread(() -> {
            try {
                select(r, self);
            } catch (Throwable e) {
                StringWriter trace = new StringWriter();
                e.printStackTrace(new PrintWriter(trace));
                loaderFailures.add(Thread.currentThread().getName() + " (member " + self + ") ended: " + trace);
            }
        }, "load-" + r.hz().getCluster().getLocalMember().getAddress().getPort());
        t.setDaemon(true);
        loaders.put(r, t);
        t.start();
    }

    private void select(Running r, String self) {
        SplittableRandom random = new SplittableRandom(r.uuid().getLeastSignificantBits());
        byte[] key = new byte[16];
        while (load.get() && running.contains(r)) {
            random.nextBytes(key);
            int hash = Crc32.hash(key);
            RingSnapshot state = r.rings().snapshot();
            var ring = state.featureRings(r.rings().split().versionFor(hash)).ring();
            int owner = ring.points().nodeIndexForHash(hash);
            if (owner < 0) {
                continue;
            }
            Member m = ring.points().node(owner).payload();
            if (!canServe.contains(m.getUuid())) {
                failovers.add(self + " chose " + m.getAddress());
            }
            selections.incrementAndGet();
        }
    }

    /**
     * Fails if a load thread ended with a failure, or if the load thread of a member still running
     * ended at all: that member's selections would no longer be checked.
     */
    private void assertLoadersRun() {
        assertThat(loaderFailures).as("load threads that failed").isEmpty();
        for (Running r : running) {
            Thread t = loaders.get(r);
            if (t != null) {
                assertThat(t.isAlive()).as("%s, loading running member %s", t.getName(), r.hz().getName()).isTrue();
            }
        }
    }

    /** {@link LoopbackMembers#await}, failing at once when a load thread failed meanwhile. */
    private void awaitLoad(BooleanSupplier condition, String what) {
        await(() -> {
            assertLoadersRun();
            return condition.getAsBoolean();
        }, what);
    }

    private static boolean onRings(Running of, Running member) {
        return of.rings().snapshot().contains(member.hz().getCluster().getLocalMember());
    }

    @Test
    void aJoiningAndADrainingMemberAreNeverChosenWhenTheyCannotServe() throws InterruptedException {
        Running a = start(0, true);
        Running b = start(1, true);
        Running c = start(2, true);
        List<Running> first = List.of(a, b, c);
        await(() -> first.stream().allMatch(x -> first.stream().allMatch(y -> onRings(x, y))), "three members on every ring");
        first.forEach(this::loadEvery);

        // A joiner is in the cluster, its rings built, but not serving: nobody places it.
        Running d = start(3, false);
        loadEvery(d);
        awaitLoad(() -> first.stream().allMatch(x -> x.hz().getCluster().getMembers().size() == 4), "four members in the cluster");
        long before = selections.get();
        awaitLoad(() -> selections.get() > before + 20_000, "selections while the joiner waits");
        assertThat(first).noneMatch(x -> onRings(x, d));
        assertThat(d.rings().servingState()).isEqualTo(ServingState.STARTING);

        // It opens: every member places it, and keys go to it.
        canServe.add(d.uuid());
        d.rings().open();
        List<Running> four = List.of(a, b, c, d);
        awaitLoad(() -> four.stream().allMatch(x -> four.stream().allMatch(y -> onRings(x, y))), "four members on every ring");

        // b drains: every member lets it go before drain returns; only then does b stop serving.
        RingsLeft left = b.rings().drain(Duration.ofSeconds(30), Duration.ofSeconds(1));
        assertThat(left.unconfirmed()).isEmpty();
        assertThat(left.confirmed()).isEqualTo(3);
        assertThat(List.of(a, c, d)).noneMatch(x -> onRings(x, b));
        canServe.remove(b.uuid());
        long afterDrain = selections.get();
        awaitLoad(() -> selections.get() > afterDrain + 20_000, "selections after the drain");
        running.remove(b);
        b.rings().close();
        members.stop(b.hz());
        awaitLoad(() -> a.hz().getCluster().getMembers().size() == 3, "b out of the cluster");
        long afterStop = selections.get();
        awaitLoad(() -> selections.get() > afterStop + 20_000, "selections after the stop");

        assertLoadersRun();
        assertThat(failovers).as("selections of a member that could not serve, of %d", selections.get()).isEmpty();
    }
}
