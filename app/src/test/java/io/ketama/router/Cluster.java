package io.ketama.router;

import com.hazelcast.core.HazelcastInstance;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.Selection;
import io.ketama.testing.Await;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/** The app's member plus plain {@link TestMember}s joined to it, for one test class. */
final class Cluster implements AutoCloseable {

    private final HazelcastInstance app;
    private final RingSelector selector;
    private final String keyPrefix;
    final List<TestMember> members = new ArrayList<>();

    /** @param keyPrefix starts every key this test class uses, so classes sharing the app never share cached keys */
    Cluster(HazelcastInstance app, RingSelector selector, String keyPrefix) {
        this.app = app;
        this.selector = selector;
        this.keyPrefix = keyPrefix;
    }

    /** Starts a plain member joined to the app's cluster and waits until the app's rings include it. */
    TestMember add(Set<String> features) {
        return add(features, new io.ketama.router.serving.DemoOrigin(Duration.ZERO));
    }

    /** As {@link #add(Set)}, with {@code origin} behind the member's cache. */
    TestMember add(Set<String> features, io.ketama.router.serving.Origin origin) {
        return add(features, origin, 256);
    }

    /** As {@link #add(Set, io.ketama.router.serving.Origin)}, with at most {@code originLimit} fetches under way. */
    TestMember add(Set<String> features, io.ketama.router.serving.Origin origin, int originLimit) {
        return add(features, origin, originLimit, io.ketama.router.forwarding.channel.ForwardSecret.NONE);
    }

    /** As {@link #add(Set, io.ketama.router.serving.Origin, int)}, taking forwards only from members that show {@code secret}. */
    TestMember add(Set<String> features, io.ketama.router.serving.Origin origin, int originLimit,
                   io.ketama.router.forwarding.channel.ForwardSecret secret) {
        return add(features, origin, originLimit, secret, 1 << 20);
    }

    /** As {@link #add(Set, io.ketama.router.serving.Origin)}, its cache holding at most {@code cacheBytes} (1 MiB elsewhere). */
    TestMember addWithCache(Set<String> features, io.ketama.router.serving.Origin origin, long cacheBytes) {
        return add(features, origin, 256, io.ketama.router.forwarding.channel.ForwardSecret.NONE, cacheBytes);
    }

    /** As {@link #add(Set, io.ketama.router.serving.Origin)}, held to bounded loads with {@code load} as a service member is. */
    TestMember addBounded(Set<String> features, io.ketama.router.serving.Origin origin, io.ketama.router.load.LoadSettings load) {
        return add(features, origin, 256, io.ketama.router.forwarding.channel.ForwardSecret.NONE, 1 << 20, load);
    }

    private TestMember add(Set<String> features, io.ketama.router.serving.Origin origin, int originLimit,
                           io.ketama.router.forwarding.channel.ForwardSecret secret, long cacheBytes) {
        return add(features, origin, originLimit, secret, cacheBytes, null);
    }

    private TestMember add(Set<String> features, io.ketama.router.serving.Origin origin, int originLimit,
                           io.ketama.router.forwarding.channel.ForwardSecret secret, long cacheBytes, io.ketama.router.load.LoadSettings load) {
        int appPort = app.getCluster().getLocalMember().getAddress().getPort();
        TestMember m = TestMember.start(app.getConfig().getClusterName(), List.of(appPort), features, null, origin, originLimit,
                secret, cacheBytes, load);
        members.add(m);
        awaitRingSize(1 + liveMembers());
        return m;
    }

    private int liveMembers() {
        return (int) members.stream().filter(m -> m.hazelcast.getLifecycleService().isRunning()).count();
    }

    /** Waits (up to 30 s) until the app's rings hold the app's member and every plain member still running. */
    void awaitRingOfLiveMembers() {
        awaitRingSize(1 + liveMembers());
    }

    /** Waits (up to 30 s) until the app's rings hold exactly {@code n} members. */
    void awaitRingSize(int n) {
        await("the rings to hold " + n + " members, they hold " + selector.snapshot().members().size(),
                () -> selector.isReady() && selector.snapshot().members().size() == n);
    }

    static void await(String what, BooleanSupplier condition) {
        await(() -> what, condition);
    }

    /** As {@link #await(String, BooleanSupplier)}, describing what it waited for as things stand when it gives up. */
    static void await(java.util.function.Supplier<String> what, BooleanSupplier condition) {
        Await.until(condition, Duration.ofSeconds(30), what);
    }

    /** The first key {@code <prefix>0}, {@code <prefix>1}, … whose selection satisfies {@code wanted}. */
    String keyWhere(Set<String> features, Predicate<Selection> wanted) {
        return keysWhere(features, wanted, 1).get(0);
    }

    /** Like {@link #keyWhere}, among keys that also satisfy {@code fresh} (say, cached nowhere yet). */
    String keyWhere(Set<String> features, Predicate<Selection> wanted, Predicate<String> fresh) {
        for (int i = 0; i < 100_000; i++) {
            String key = keyPrefix + i;
            if (fresh.test(key) && wanted.test(selector.select(key.getBytes(StandardCharsets.ISO_8859_1), features))) {
                return key;
            }
        }
        throw new AssertionError("no key found for the condition among 100000");
    }

    /** Whether no running plain member has {@code key} cached. */
    boolean cachedByNoMember(String key) {
        return members.stream().noneMatch(m -> m.hazelcast.getLifecycleService().isRunning() && m.cached(key) != null);
    }

    /** The first {@code n} keys {@code <prefix>0}, {@code <prefix>1}, … whose selection satisfies {@code wanted}. */
    List<String> keysWhere(Set<String> features, Predicate<Selection> wanted, int n) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 100_000 && keys.size() < n; i++) {
            String key = keyPrefix + i;
            if (wanted.test(selector.select(key.getBytes(StandardCharsets.ISO_8859_1), features))) {
                keys.add(key);
            }
        }
        if (keys.size() < n) {
            throw new AssertionError("only " + keys.size() + " of " + n + " keys found for the condition among 100000");
        }
        return keys;
    }

    Selection select(String key, Set<String> features) {
        return selector.select(key.getBytes(StandardCharsets.ISO_8859_1), features);
    }

    @Override
    public void close() {
        for (TestMember m : members) {
            m.close();
        }
        awaitRingSize(1);
    }
}
