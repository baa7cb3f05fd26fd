package io.ketama.quarkus.runtime;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.ketama.core.Crc32;
import io.ketama.core.FeatureRings;
import io.ketama.core.HashStyle;
import io.ketama.core.RingVersion;
import io.ketama.testing.LoopbackHazelcast;
import io.ketama.testing.StartedMembers;
import io.ketama.quarkus.RingSnapshot;
import io.ketama.quarkus.ServingState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static io.ketama.quarkus.MemberAttributes.FEATURES;
import static io.ketama.quarkus.MemberAttributes.GATED;
import static io.ketama.quarkus.MemberAttributes.WEIGHT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 29, point 4: the extension's rebuild step at 10, 100 and 1,000 members, measured on a real
 * Hazelcast member. The members are synthetic ({@code MemberImpl} values with the extension's
 * attributes, gated, weights 1–10, 8 tags each with probability 1/2) and their serving states are
 * real entries of the real board map ({@value MemberBoard#MAP}), so one rebuild here is what
 * {@code ClusterRings.rebuild} runs, step by step:
 * <ol>
 *   <li>the member board snapshot: {@link MemberBoard#snapshot} (the board as heard: the board's
 *       entry events and polls keep it, and the step reads remotely only members not heard from yet,
 *       all of them in the first round here) and {@link MembershipWatcher#belongsOnRings} for each
 *       member;</li>
 *   <li>the rings: {@link RingBuilder#build} (parse the attributes, sort by identity, v1 with 160
 *       points per weight, v2 with 16, their balance statistics);</li>
 *   <li>the feature rings: both versions' {@link FeatureRings} with the 8 feature sets in use
 *       prepared (planned, and materialised where the budget admits), inside {@code build};</li>
 *   <li>the swap: a volatile write of the new snapshot.</li>
 * </ol>
 * Not included: the cluster's member list ({@code getMembers()}, a local read; the members here are
 * synthetic), the selection counters and log line {@code ClusterRings} adds, and this member's own
 * board write after the swap (asynchronous, on the board's thread).
 *
 * <p>Then lookups during rebuilds (each lookup timed with {@code System.nanoTime}: latency
 * percentiles, idle against a rebuild loop on another thread) and a burst of 1,000 membership
 * events through {@link CoalescingRebuilder} at the default 200 ms delay (rebuilds counted).
 *
 * <pre>
 * ./mvnw -B -pl runtime,deployment -am verify -Dtest=RebuildAtScaleBench -Dsurefire.failIfNoSpecifiedTests=false \
 *        -Dketama.rebuild.bench=true                 # report in runtime/target/rebuild-bench.md
 * </pre>
 * Runs only when asked: its figures are timings, which a unit test must not assert.
 */
@EnabledIfSystemProperty(named = "ketama.rebuild.bench", matches = "true")
class RebuildAtScaleBench {

    private static final List<Set<String>> SETS = List.of(Set.of("t0"), Set.of("t1"), Set.of("t0", "t1"), Set.of("t2", "t3"),
            Set.of("t4", "t5"), Set.of("t0", "t2", "t4"), Set.of("t1", "t3", "t5"), Set.of("t2", "t6", "t7"));
    private static final StartedMembers STARTED = new StartedMembers();
    private static final StringBuilder REPORT = new StringBuilder();
    private static HazelcastInstance hz;

    @BeforeAll
    static void start() {
        hz = STARTED.start(LoopbackHazelcast.anyFreePort(LoopbackHazelcast.clusterName("rebuild-bench"), List.of()));
        REPORT.append("# Rebuild at scale\n\n").append(String.format(Locale.ROOT, "java %s, %d CPUs, load average at start %s%n%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), loadAverage()));
    }

    @AfterAll
    static void stop() throws Exception {
        STARTED.close();
        Path out = Path.of("target", "rebuild-bench.md");
        Files.writeString(out, REPORT.append("\nload average at end ").append(loadAverage()).append('\n').toString());
        System.out.println(REPORT);
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (Exception e) {
            return "unknown";
        }
    }

    /** {@code count} synthetic gated members with weights 1–10 and tags, their board entries written as serving. */
    private static List<Member> members(int count) {
        Random rnd = new Random(count);
        IMap<String, String> board = hz.getMap(MemberBoard.MAP);
        board.clear();
        List<Member> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            StringBuilder tags = new StringBuilder();
            for (int t = 0; t < 8; t++) {
                if (rnd.nextBoolean()) {
                    tags.append(tags.length() == 0 ? "" : ",").append('t').append(t);
                }
            }
            Member m = Members.member("10." + (i >>> 16) + "." + ((i >>> 8) & 255) + "." + (i & 255), 5701, WEIGHT,
                    Integer.toString(1 + rnd.nextInt(10)), FEATURES, tags.toString(), GATED, "true");
            board.set(m.getUuid().toString(), new MemberStatus(ServingState.SERVING, 1, Set.of()).encode());
            out.add(m);
        }
        return out;
    }

    /** One rebuild step, as ClusterRings runs it (see the class comment). */
    private static final class Step {
        final List<Member> members;
        final MemberBoard board = new MemberBoard(hz, reason -> { });
        final RingBuilder builder = new RingBuilder(new RingSettings(HashStyle.NGINX, 16));
        final Member local = hz.getCluster().getLocalMember();
        volatile RingSnapshot current;
        long generation;
        long boardNanos;
        long buildNanos;
        long boardProcessNanos;
        long buildProcessNanos;

        Step(List<Member> members) {
            this.members = members;
            run();
            // the sets in use: looked up once on the first rings, so every later rebuild prepares them
            for (RingVersion v : RingVersion.values()) {
                for (Set<String> s : SETS) {
                    current.featureRings(v).nodeIndexForHash(42, s);
                }
            }
        }

        void run() {
            long p0 = processCpuNanos();
            long t0 = System.nanoTime();
            Map<UUID, MemberStatus> statuses = board.snapshot(members);
            List<Member> on = new ArrayList<>(members.size());
            for (Member m : members) {
                if (MembershipWatcher.belongsOnRings(m, statuses.get(m.getUuid()))) {
                    on.add(m);
                }
            }
            long t1 = System.nanoTime();
            long p1 = processCpuNanos();
            RingSnapshot built = builder.build(on, List.of(), local, ++generation, "bench");
            current = built; // the swap
            long t2 = System.nanoTime();
            long p2 = processCpuNanos();
            boardNanos = t1 - t0;
            buildNanos = t2 - t1;
            boardProcessNanos = p1 - p0;
            buildProcessNanos = p2 - p1;
        }
    }

    @Test
    void rebuildStepAt10And100And1000Members() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        REPORT.append("## The rebuild step (board snapshot, rings, feature rings with 8 sets, swap)\n\n")
                .append("CPU ms: of the thread running the step (what the step costs where wall time measures the machine's load).\n"
                        + "Process CPU ms: of every thread of the JVM meanwhile (any remote read's work on Hazelcast's threads, GC, the JIT, "
                        + "Hazelcast's own background work), as a mean over the rounds (the OS counts it in ticks of 10 ms), during the board snapshot "
                        + "and during the rest of the step.\n\n")
                .append("| members | v1 points | v2 points | sets materialised (v1, v2) | wall ms median | p90 | max | CPU ms median | p90 "
                        + "| process CPU ms mean: board snapshot | rest of the step | board snapshot wall ms median | rings + feature rings wall ms median | target |\n")
                .append("|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        StringBuilder alternatives = new StringBuilder();
        for (int count : new int[] {10, 100, 1000}) {
            Step step = new Step(members(count));
            int rounds = count == 1000 ? 60 : 200;
            for (int i = 0; i < rounds; i++) { // compiled before it is measured
                step.run();
            }
            double[] wall = new double[rounds];
            double[] cpu = new double[rounds];
            double boardProcess = 0;
            double buildProcess = 0;
            double[] board = new double[rounds];
            double[] build = new double[rounds];
            for (int i = 0; i < rounds; i++) {
                long c0 = threads.getCurrentThreadCpuTime();
                long w0 = System.nanoTime();
                step.run();
                wall[i] = (System.nanoTime() - w0) / 1e6;
                cpu[i] = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
                boardProcess += step.boardProcessNanos / 1e6 / rounds;
                buildProcess += step.buildProcessNanos / 1e6 / rounds;
                board[i] = step.boardNanos / 1e6;
                build[i] = step.buildNanos / 1e6;
            }
            RingSnapshot s = step.current;
            assertThat(s.members()).hasSize(count);
            int m1 = s.featureRings(RingVersion.V1).materialisedCount();
            int m2 = s.featureRings(RingVersion.V2).materialisedCount();
            assertThat(s.featureRings(RingVersion.V2).plannedSets()).hasSize(SETS.size());
            if (count >= 100) {
                alternatives.append(boardReadAlternatives(step, rounds / 2));
            }
            String target = count == 100 ? "≤ 5 ms" : count == 1000 ? "≤ 50 ms" : "";
            REPORT.append(String.format(Locale.ROOT, "| %,d | %,d | %,d | %d, %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s |%n", count,
                    s.rings().get(RingVersion.V1).points(), s.rings().get(RingVersion.V2).points(), m1, m2, pct(wall, 50), pct(wall, 90),
                    pct(wall, 100), pct(cpu, 50), pct(cpu, 90), boardProcess, buildProcess, pct(board, 50), pct(build, 50), target));
        }
        REPORT.append("\nOff the step: a poll's read of every member's entry (MemberBoard.read, what the step did before it took the board as heard),\n"
                        + "against one IMap.getAll of the same entries (the read before 935f5d2, which could return short on a large cluster),\n"
                        + "process CPU ms, mean:\n\n| members | MemberBoard.read | IMap.getAll |\n|---:|---:|---:|\n")
                .append(alternatives);
    }

    /** Process CPU of a poll's read of every entry, and of one {@code IMap.getAll} of the same entries. */
    private static String boardReadAlternatives(Step step, int rounds) {
        IMap<String, String> map = hz.getMap(MemberBoard.MAP);
        Set<String> keys = new java.util.HashSet<>();
        for (Member m : step.members) {
            keys.add(m.getUuid().toString());
        }
        double read = 0;
        double getAll = 0;
        int found = 0;
        for (int i = 0; i < rounds; i++) {
            long p0 = processCpuNanos();
            found = step.board.read(step.members).size();
            long p1 = processCpuNanos();
            found += map.getAll(keys).size();
            long p2 = processCpuNanos();
            read += (p1 - p0) / 1e6 / rounds;
            getAll += (p2 - p1) / 1e6 / rounds;
        }
        assertThat(found).isEqualTo(2 * step.members.size());
        return String.format(Locale.ROOT, "| %,d | %.2f | %.2f |%n", step.members.size(), read, getAll);
    }

    @Test
    void lookupLatencyWhileRebuildingInALoop() throws Exception {
        Step step = new Step(members(1000));
        for (int i = 0; i < 30; i++) {
            step.run();
        }
        byte[][] keys = new byte[1 << 16][];
        Random rnd = new Random(7);
        for (int i = 0; i < keys.length; i++) {
            keys[i] = ("key-" + rnd.nextLong()).getBytes(StandardCharsets.UTF_8);
        }
        REPORT.append("\n## Lookup latency, 1,000 members, idle and while another thread rebuilds in a loop\n\n")
                .append("Each lookup timed alone with System.nanoTime (about 20-30 ns of it is the clock): the snapshot's volatile read,\n"
                        + "CRC-32 of a 20-byte key, then v2 unconstrained (even lookups) or constrained by one of the 8 sets (odd).\n\n")
                .append("| phase | lookups | rebuilds meanwhile | p50 ns | p99 ns | p99.9 ns | max ns |\n|---|---:|---:|---:|---:|---:|---:|\n");
        int samples = 2_000_000;
        for (int round = 0; round < 2; round++) {
            for (boolean rebuilding : new boolean[] {false, true}) {
                AtomicInteger rebuilds = new AtomicInteger();
                CountDownLatch stop = new CountDownLatch(1);
                Thread loop = new Thread(() -> {
                    while (stop.getCount() > 0) {
                        step.run();
                        rebuilds.incrementAndGet();
                    }
                }, "rebuild-loop");
                if (rebuilding) {
                    loop.start();
                    while (rebuilds.get() < 2) {
                        Thread.onSpinWait();
                    }
                    rebuilds.set(0);
                }
                long[] ns = new long[samples];
                long sink = 0;
                for (int i = 0; i < samples; i++) {
                    byte[] key = keys[i & (keys.length - 1)];
                    long t0 = System.nanoTime();
                    RingSnapshot s = step.current;
                    int hash = Crc32.hash(key);
                    int owner = (i & 1) == 0 ? s.ring(RingVersion.V2).points().nodeIndexForHash(hash)
                            : s.featureRings(RingVersion.V2).nodeIndexForHash(hash, SETS.get((i >>> 1) & 7));
                    ns[i] = System.nanoTime() - t0;
                    sink += owner;
                }
                stop.countDown();
                if (rebuilding) {
                    loop.join();
                }
                Arrays.sort(ns);
                if (round == 1) { // the first round warms up
                    REPORT.append(String.format(Locale.ROOT, "| %s | %,d | %d | %d | %d | %d | %d |%n", rebuilding ? "rebuilding" : "idle",
                            samples, rebuilds.get(), ns[samples / 2], ns[(int) (samples * 0.99)], ns[(int) (samples * 0.999)],
                            ns[samples - 1]));
                }
                assertThat(sink).isNotZero();
            }
        }
    }

    @Test
    void aBurstOf1000MembershipEventsCoalesces() throws Exception {
        Step step = new Step(members(1000));
        REPORT.append("\n## A burst of 1,000 membership events (coalesce delay 200 ms, the default), 1,000 members\n\n")
                .append("| burst | events | rebuilds | rebuild thread busy ms |\n|---|---:|---:|---:|\n");
        for (int spacingMicros : new int[] {0, 2_000}) {
            AtomicInteger rebuilds = new AtomicInteger();
            AtomicLong busy = new AtomicLong();
            try (CoalescingRebuilder rebuilder = new CoalescingRebuilder(Duration.ofMillis(200), reason -> {
                long t0 = System.nanoTime();
                step.run();
                busy.addAndGet(System.nanoTime() - t0);
                rebuilds.incrementAndGet();
            })) {
                long start = System.nanoTime();
                Thread[] senders = new Thread[4]; // Hazelcast delivers events on several threads
                for (int t = 0; t < senders.length; t++) {
                    int first = t;
                    senders[t] = new Thread(() -> {
                        for (int e = first; e < 1000; e += 4) {
                            if (spacingMicros > 0) {
                                long due = start + (long) e * spacingMicros * 1000;
                                while (System.nanoTime() < due) {
                                    Thread.onSpinWait();
                                }
                            }
                            rebuilder.request("member added 10.9." + (e >>> 8) + "." + (e & 255) + ":5701");
                        }
                    });
                    senders[t].start();
                }
                for (Thread t : senders) {
                    t.join();
                }
                long burstMs = (System.nanoTime() - start) / 1_000_000;
                // past the last request's delay, then one rebuild queued behind the pending one: when it
                // has run, every rebuild the burst asked for has too (a single thread, due order)
                Thread.sleep(250);
                rebuilder.runAndWait("flush", Duration.ofMinutes(2));
                int count = rebuilds.get() - 1;
                REPORT.append(String.format(Locale.ROOT, "| %s (%d ms) | 1,000 | %d | %.1f |%n",
                        spacingMicros == 0 ? "at once, 4 threads" : "one every 2 ms, 4 threads", burstMs, count, busy.get() / 1e6));
                // bounded: one rebuild per delay the burst lasted, and one more
                assertThat(count).isBetween(1, (int) (burstMs / 200) + 2);
            }
        }
    }

    /** CPU time of every thread of this JVM so far. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static double pct(double[] values, int p) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v[Math.min(v.length - 1, (int) Math.ceil(v.length * p / 100.0) - 1)];
    }
}
