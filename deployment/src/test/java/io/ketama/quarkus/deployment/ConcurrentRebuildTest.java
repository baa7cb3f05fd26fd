package io.ketama.quarkus.deployment;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.core.Crc32;
import io.ketama.core.FeatureRings;
import io.ketama.core.KetamaRing;
import io.ketama.core.Node;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.Selection;
import io.quarkus.test.QuarkusUnitTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lookups from several threads while members join and leave: none fails, and each answer comes
 * whole from one snapshot (the owner and candidates of the rings in use at that moment).
 */
class ConcurrentRebuildTest {

    static final TestCluster CLUSTER = new TestCluster("ketama-concurrent", 6);
    static final int READERS = 4;
    static final Set<String> SSD = Set.of("ssd");

    @RegisterExtension
    static final QuarkusUnitTest APP = CLUSTER.app(
            "quarkus.ketama.rebuild.coalesce-delay", "0ms",
            "quarkus.ketama.member.features", "ssd",
            "quarkus.ketama.migration.mode", "split",
            "quarkus.ketama.migration.v2-share", "50");

    @Inject
    RingSelector selector;

    private final List<Throwable> failures = new CopyOnWriteArrayList<>();
    private final AtomicLong exact = new AtomicLong();
    private final AtomicLong straddling = new AtomicLong();
    private final AtomicLong unchecked = new AtomicLong();
    private final Set<Long> generations = ConcurrentHashMap.newKeySet();

    @AfterAll
    static void stopMembers() {
        CLUSTER.close();
    }

    @Test
    void lookupsDuringManyRebuildsNeverFailAndComeFromOneSnapshot() throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < READERS; t++) {
            long seed = t;
            Thread reader = new Thread(() -> read(running, seed), "reader-" + t);
            reader.start();
            readers.add(reader);
        }
        long firstGeneration = selector.snapshot().generation();
        int changes = 0;
        try {
            for (int round = 0; round < 2; round++) {
                HazelcastInstance a = CLUSTER.start(1, 1, Set.of(), null);
                HazelcastInstance b = CLUSTER.start(2, 2, SSD, null);
                HazelcastInstance c = CLUSTER.start(3, 1, SSD, "c-" + round);
                CLUSTER.stop(b);
                HazelcastInstance d = CLUSTER.start(4, 3, Set.of(), null);
                CLUSTER.stop(a);
                HazelcastInstance e = CLUSTER.start(5, 1, SSD, null);
                CLUSTER.stop(d);
                CLUSTER.stop(c);
                CLUSTER.stop(e);
                changes += 10;
            }
            TestCluster.awaitSnapshot(selector, s -> s.members().size() == 1, "back to the application's member alone");
        } finally {
            running.set(false);
            for (Thread reader : readers) {
                reader.join(60_000);
            }
        }
        assertThat(failures).isEmpty();
        long rebuilds = selector.snapshot().generation() - firstGeneration;
        assertThat(rebuilds).as("rebuilds during the test").isGreaterThanOrEqualTo(changes / 2);
        assertThat(generations.size()).as("snapshot generations the readers saw").isGreaterThan(5);
        long total = exact.get() + straddling.get() + unchecked.get();
        assertThat(exact.get()).isGreaterThan(10_000);
        assertThat(unchecked.get()).isLessThan(Math.max(10, total / 100));
        System.out.printf("%d lookups across %d rebuilds: %d checked exactly, %d across one rebuild, %d across several%n",
                total, rebuilds, exact.get(), straddling.get(), unchecked.get());
    }

    private void read(AtomicBoolean running, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        byte[] key = new byte[12];
        try {
            while (running.get()) {
                random.nextBytes(key);
                boolean constrained = random.nextBoolean();
                RingSnapshot before = selector.snapshot();
                Selection s = constrained ? selector.select(key, SSD) : selector.select(key);
                RingSnapshot after = selector.snapshot();
                generations.add(before.generation());
                check(key, constrained ? SSD : Set.of(), s, before, after);
            }
        } catch (Throwable t) {
            failures.add(t);
        }
    }

    private void check(byte[] key, Set<String> required, Selection s, RingSnapshot before, RingSnapshot after) {
        // the application's own member is always on the rings and has every feature asked for
        assertThat(s.found()).isTrue();
        if (before.generation() == after.generation()) {
            List<Member> expected = failover(before.ring(s.version()), key, required);
            assertThat(s.owner()).isEqualTo(expected.get(0));
            assertThat(s.candidates()).isEqualTo(expected);
            exact.incrementAndGet();
        } else if (after.generation() == before.generation() + 1) {
            assertThat(before.contains(s.owner()) || after.contains(s.owner())).isTrue();
            Set<UUID> allowed = new HashSet<>();
            before.members().forEach(m -> allowed.add(m.member().getUuid()));
            after.members().forEach(m -> allowed.add(m.member().getUuid()));
            for (Member m : s.candidates()) {
                assertThat(allowed).contains(m.getUuid());
            }
            assertThat(new HashSet<>(s.candidates())).hasSameSizeAs(s.candidates());
            straddling.incrementAndGet();
        } else {
            unchecked.incrementAndGet();
        }
    }

    private static List<Member> failover(KetamaRing<Member> ring, byte[] key, Set<String> required) {
        List<Member> out = new ArrayList<>();
        for (Iterator<Node<Member>> it = FeatureRings.of(ring).failoverForHash(Crc32.hash(key), required); it.hasNext(); ) {
            out.add(it.next().payload());
        }
        return out;
    }
}
