package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.quarkus.PublishedLoad;
import io.ketama.quarkus.Selection;
import io.ketama.router.load.LoadSettings;
import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.Members;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * Bounded loads between four real members: the app (the entry) and three plain members that hold
 * themselves to their bound as a service member does (the real {@code OwnerLoad} and load board).
 * Half the requests ask for one hot key: its owner serves no more than its bound over the cluster's
 * load, counted by every member's own count of what it served; what it spills goes to the key's next
 * candidates in its own failover order, which cache it once and keep serving it as hits; a key that
 * requires a feature spills only to members that have it.
 */
@QuarkusTest
@TestProfile(BoundedLoadTest.Profile.class)
class BoundedLoadTest extends ClusterTest {

    /** Windows of 200 ms and no rate below which nothing spills, so a test's load is enough to see bounds. */
    static final LoadSettings LOAD = new LoadSettings(true, 1.25, Duration.ofMillis(200), 0);

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // near copies off: the hot key's requests reach its owner, which must hold them to its bound itself
            return Map.of("ketama.router.bounded-load.window", "200ms", "ketama.router.bounded-load.min-rate", "0",
                    "ketama.router.near-cache.enabled", "false");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(LoopbackCluster.class));
        }
    }

    private static final int CLIENTS = 4;
    private static final Duration WARM_UP = Duration.ofSeconds(3);
    private static final Duration MEASURED = Duration.ofSeconds(5);

    TestMember b;
    TestMember c;
    TestMember d;

    @Override
    String keyPrefix() {
        return "bounded-";
    }

    @Override
    void addMembers() {
        b = cluster.addBounded(Set.of("ssd"), new DemoOrigin(Duration.ZERO), LOAD);
        c = cluster.addBounded(Set.of("ssd"), new DemoOrigin(Duration.ZERO), LOAD);
        d = cluster.addBounded(Set.of(), new DemoOrigin(Duration.ZERO), LOAD);
    }

    /** What one answer said. */
    private record Answer(int status, String servedBy, String cache, boolean spilled) {
    }

    /** Half the requests for {@code hot} (with {@code features}), half for the cold keys; answers for the hot one kept. */
    private final class Load {
        final ConcurrentLinkedQueue<Answer> hotAnswers = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        final LongAdder requests = new LongAdder();
        final AtomicBoolean measuring = new AtomicBoolean();

        void run(String hot, String features, List<String> cold, Duration warmUp, Duration measured, Runnable atStart)
                throws Exception {
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            AtomicBoolean running = new AtomicBoolean(true);
            try {
                List<Future<?>> load = new ArrayList<>();
                for (int i = 0; i < CLIENTS; i++) {
                    load.add(clients.submit(() -> {
                        ThreadLocalRandom random = ThreadLocalRandom.current();
                        while (running.get()) {
                            boolean isHot = random.nextBoolean();
                            String key = isHot ? hot : cold.get(random.nextInt(cold.size()));
                            Answer a = get(key, isHot ? features : null);
                            requests.increment();
                            if (a.status != 200) {
                                failures.add(key + " -> " + a);
                            } else if (isHot && measuring.get()) {
                                hotAnswers.add(a);
                            }
                        }
                        return null;
                    }));
                }
                Thread.sleep(warmUp.toMillis());
                atStart.run();
                measuring.set(true);
                Thread.sleep(measured.toMillis());
                measuring.set(false);
                running.set(false);
                for (Future<?> f : load) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                running.set(false);
                clients.shutdownNow();
            }
        }
    }

    private static Answer get(String key, String features) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + RestAssured.port + "/cache/" + key)
                .toURL().openConnection();
        if (features != null) {
            c.setRequestProperty(FeaturesHeader.NAME, features);
        }
        c.setReadTimeout(30_000);
        int status = c.getResponseCode();
        try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
            if (in != null) {
                in.readAllBytes();
            }
        }
        return new Answer(status, c.getHeaderField(CacheAnswers.SERVED_BY), c.getHeaderField(CacheAnswers.CACHE),
                c.getHeaderField(CacheAnswers.SPILLED) != null);
    }

    /** Each member's count of what it served, by address. */
    private Map<String, LongSupplier> servedCounts() {
        Map<String, LongSupplier> counts = new HashMap<>();
        counts.put(appAddress(), ownerLoad::served);
        for (TestMember m : List.of(b, c, d)) {
            counts.put(m.address(), m.load::served);
        }
        return counts;
    }

    private static Map<String, Long> read(Map<String, LongSupplier> counts) {
        Map<String, Long> now = new HashMap<>();
        counts.forEach((member, count) -> now.put(member, count.getAsLong()));
        return now;
    }

    @Test
    void theHotKeysOwnerServesNoMoreThanItsBoundAndItsSpillsStayOnItsNextCandidates() throws Exception {
        String hot = cluster.keyWhere(Set.of(), s -> is(s.owner(), d.member()));
        Selection selection = cluster.select(hot, Set.of());
        List<String> order = selection.candidates().stream().map(Members::address).toList();
        List<String> cold = cluster.keysWhere(Set.of(), s -> true, 400);
        Map<String, LongSupplier> counts = servedCounts();
        Map<String, Long>[] before = new Map[1];
        PublishedLoad[] published = new PublishedLoad[1];
        Load load = new Load();
        load.run(hot, null, cold, WARM_UP, MEASURED, () -> {
            before[0] = read(counts);
            published[0] = selector.publishedLoad();
        });
        Map<String, Long> after = read(counts);

        long total = 0;
        Map<String, Long> served = new HashMap<>();
        for (String member : counts.keySet()) {
            long n = after.get(member) - before[0].get(member);
            served.put(member, n);
            total += n;
        }
        double ownerShare = (double) served.get(d.address()) / total;
        long spilled = load.hotAnswers.stream().filter(Answer::spilled).count();
        Map<String, Long> hotBy = new HashMap<>();
        Map<String, Long> spilledMisses = new ConcurrentHashMap<>();
        for (Answer a : load.hotAnswers) {
            hotBy.merge(a.servedBy, 1L, Long::sum);
            if (a.spilled && "MISS".equals(a.cache)) {
                spilledMisses.merge(a.servedBy, 1L, Long::sum);
            }
        }
        System.out.printf("BoundedLoadTest: %d requests, %d served in %d s by each member %s (the hot key's owner %s: %.3f of the "
                + "answers, its bound 1.25 x 1/4 = 0.3125); the hot key's %d answers by %s, %d spilled, misses among them %s; "
                + "failover order %s%n", load.requests.sum(), total, MEASURED.toSeconds(), served, d.address(), ownerShare,
                load.hotAnswers.size(), hotBy, spilled, spilledMisses, order);

        assertThat(load.failures).as("failed requests").isEmpty();
        // what the members' load boards wrote, as the extension's RingSelector reads it (the client role reads the same)
        System.out.printf("BoundedLoadTest: the load board as RingSelector.publishedLoad() read it after the warm-up: %s%n",
                published[0]);
        assertThat(published[0].loads().keySet()).as("members whose published load the extension read")
                .containsExactlyInAnyOrder(selector.snapshot().localMember().getUuid(), b.member().getUuid(),
                        c.member().getUuid(), d.member().getUuid());
        assertThat(published[0].loads().values()).as("answers a second each member published: all serve cold keys")
                .allSatisfy(rate -> assertThat(rate).isPositive());
        // The bound per window is ceil(1.25 (L.D + 1) / 4) with L the cluster's rate of the window before: the
        // load is steady, so the owner's share is 1.25 / 4 within the rate's change from window to window and
        // one request a window of rounding (a few per cent at these rates); without bounded loads it is 0.625.
        assertThat(ownerShare).as("the hot key's owner's share of what the cluster served").isLessThanOrEqualTo(0.3125 * 1.08);
        assertThat(spilled).as("answers of the hot key a later candidate served").isPositive();
        assertThat(hotBy.keySet()).as("who served the hot key: the owner and the next members of its failover order")
                .isSubsetOf(order);
        assertThat(hotBy.keySet()).contains(order.get(1));
        assertThat(spilledMisses.values().stream().mapToLong(Long::longValue).sum())
                .as("spilled copies are cached where they land: at most one miss a member, and only as it first lands")
                .isLessThanOrEqualTo(1L);
    }

    @Test
    void aKeyThatRequiresAFeatureSpillsOnlyToMembersThatHaveIt() throws Exception {
        String hot = cluster.keyWhere(Set.of("ssd"), s -> is(s.owner(), b.member()));
        List<String> cold = cluster.keysWhere(Set.of(), s -> true, 400).stream().map(k -> k + "-f").toList();
        Load load = new Load();
        load.run(hot, "ssd", cold, WARM_UP, MEASURED, () -> { });
        Map<String, Long> hotBy = new HashMap<>();
        for (Answer a : load.hotAnswers) {
            hotBy.merge(a.servedBy, 1L, Long::sum);
        }
        long spilled = load.hotAnswers.stream().filter(Answer::spilled).count();
        System.out.printf("BoundedLoadTest: the ssd key's %d answers by %s, %d spilled%n", load.hotAnswers.size(), hotBy, spilled);
        assertThat(load.failures).isEmpty();
        assertThat(spilled).isPositive();
        assertThat(hotBy.keySet()).as("only the members with ssd").containsExactlyInAnyOrder(b.address(), c.address());
    }
}
