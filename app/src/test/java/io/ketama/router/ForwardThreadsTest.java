package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Forwarding holds no thread per request and starts none: 10,000 requests for keys other members
 * own (misses and hits), 16 at a time, leave the JVM's thread count where it was.
 */
@QuarkusTest
@WithTestResource(value = LoopbackCluster.class, scope = TestResourceScope.MATCHING_RESOURCES)
class ForwardThreadsTest extends ClusterTest {

    private static final int FORWARDS = 10_000;
    private static final int CLIENTS = 16;


    @Override
    String keyPrefix() {
        return "thr-";
    }

    @Override
    void addMembers() {
        cluster.add(Set.of());
        cluster.add(Set.of());
    }

    @Test
    void tenThousandForwardsStartNoThreads() throws Exception {
        List<String> keys = cluster.keysWhere(Set.of(),
                s -> !is(s.owner(), app()), 2_000);
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            // warm-up at the same concurrency: pools that start their threads lazily reach their working size
            run(clients, keys, 3_000);
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            int liveBefore = threads.getThreadCount();
            long startedBefore = threads.getTotalStartedThreadCount();

            int forwarded = run(clients, keys, FORWARDS);

            long started = threads.getTotalStartedThreadCount() - startedBefore;
            int liveAfter = threads.getThreadCount();
            System.out.printf("ForwardThreadsTest: %d forwards, %d threads started, live threads %d -> %d%n",
                    forwarded, started, liveBefore, liveAfter);
            assertThat(forwarded).isEqualTo(FORWARDS);
            // A thread per forward, or per callback, would start thousands; bounded pools that grow
            // lazily (Hazelcast's executors) and housekeeping may start a few.
            assertThat(started).as("threads started during " + FORWARDS + " forwards").isLessThanOrEqualTo(16);
            assertThat(liveAfter).as("live threads after the forwards").isLessThanOrEqualTo(liveBefore + 16);
        } finally {
            clients.shutdownNow();
        }
    }

    /** Sends {@code n} requests for {@code keys} in turn, {@link #CLIENTS} at a time; answers how many were forwarded. */
    private static int run(ExecutorService clients, List<String> keys, int n) throws Exception {
        AtomicInteger next = new AtomicInteger();
        AtomicInteger forwarded = new AtomicInteger();
        List<Future<?>> done = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            done.add(clients.submit(() -> {
                for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                    if (get(keys.get(i % keys.size()))) {
                        forwarded.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(5, TimeUnit.MINUTES);
        }
        return forwarded.get();
    }

    /** One keep-alive GET; whether another member served it. */
    private static boolean get(String key) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + RestAssured.port + "/cache/" + key)
                .toURL().openConnection();
        int status = c.getResponseCode();
        String servedBy = c.getHeaderField(CacheAnswers.SERVED_BY);
        String owner = c.getHeaderField(CacheAnswers.OWNER);
        try (InputStream body = c.getInputStream()) {
            body.readAllBytes();
        }
        if (status != 200) {
            throw new AssertionError("GET /cache/" + key + " answered " + status);
        }
        return servedBy != null && servedBy.equals(owner) && !servedBy.isEmpty();
    }
}
