package io.ketama.router;

import io.ketama.router.serving.KeyedOrigin;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.router.serving.DemoOrigin;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A member dies under load (Hazelcast terminated and its channels closed under the forwards on
 * them, as {@code kill -9} does): not one request fails. Forwards under way to it at that moment
 * fail over to the next member; forwards sent before the cluster notices fail over too; after it,
 * its keys belong to the others.
 */
@QuarkusTest
@WithTestResource(value = LoopbackCluster.class, scope = TestResourceScope.MATCHING_RESOURCES)
class MemberKillTest extends ClusterTest {

    private static final int CLIENTS = 8;

    TestMember victim;
    final CompletableFuture<Void> never = new CompletableFuture<>();

    @Override
    String keyPrefix() {
        return "kill-";
    }

    @Override
    void addMembers() {
        cluster.add(Set.of());
        cluster.add(Set.of());
        DemoOrigin demo = new DemoOrigin(Duration.ZERO);
        // the victim's origin holds its "kill-held" keys until it dies: those forwards are under way at the kill
        victim = cluster.add(Set.of(), KeyedOrigin.of(key -> key.startsWith("kill-held") ? never.thenCompose(v -> demo.fetch(key)) : demo.fetch(key)));
    }

    @AfterAll
    void releaseTheVictimsHeldFetches() {
        never.complete(null);
    }

    @Test
    void aMemberKilledUnderLoadFailsNoRequest() throws Exception {
        List<String> keys = cluster.keysWhere(Set.of(), s -> true, 3_000);
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS + 8);
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong answered = new AtomicLong();
        AtomicInteger failoverAnswers = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        try {
            List<Future<?>> load = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int offset = c;
                load.add(clients.submit(() -> {
                    for (int i = offset; running.get(); i += CLIENTS) {
                        Answer a = get(keys.get(i % keys.size()));
                        answered.incrementAndGet();
                        if (a.status != 200) {
                            failures.add(a.toString());
                        } else if (a.failover != null) {
                            failoverAnswers.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            List<String> held = new ArrayList<>();
            for (int i = 0; held.size() < 8; i++) {
                String k = "kill-held-" + i;
                if (cluster.select(k, Set.of()).owner().getUuid().equals(victim.member().getUuid())) {
                    held.add(k);
                }
            }
            List<Future<Answer>> heldRequests = new ArrayList<>();
            for (String k : held) {
                heldRequests.add(clients.submit(() -> get(k)));
            }
            Cluster.await(() -> "8 forwards held at the victim, " + victim.receiver.inFlight() + " are",
                    () -> victim.receiver.inFlight() == 8);
            long before = answered.get();
            Cluster.await("the load to run on", () -> answered.get() > before + 500);

            victim.crash();
            long atKill = answered.get();

            for (Future<Answer> f : heldRequests) {
                Answer a = f.get(60, TimeUnit.SECONDS);
                assertThat(a.status).as("a forward under way at the kill: " + a).isEqualTo(200);
                assertThat(a.servedBy).as("served by a live member: " + a).isNotEqualTo(victim.address());
                assertThat(a.failover).as("it failed over: " + a).isNotNull();
            }
            cluster.awaitRingOfLiveMembers();
            long atRing = answered.get();
            Cluster.await("the load to run on after the ring changed", () -> answered.get() > atRing + 500);
            running.set(false);
            for (Future<?> f : load) {
                f.get(60, TimeUnit.SECONDS);
            }
            System.out.printf("MemberKillTest: %d answers (%d after the kill, %d after the ring changed), %d failed over, "
                    + "%d failed%n", answered.get(), answered.get() - atKill, answered.get() - atRing, failoverAnswers.get(),
                    failures.size());
            assertThat(failures).as("failed requests of " + answered.get()).isEmpty();
        } finally {
            running.set(false);
            clients.shutdownNow();
        }
    }

    private record Answer(String key, int status, String servedBy, String failover, String body) {
        @Override
        public String toString() {
            return key + " -> " + status + " served by " + servedBy + " failover " + failover + " " + body;
        }
    }

    private static Answer get(String key) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + RestAssured.port + "/cache/" + key)
                .toURL().openConnection();
        c.setReadTimeout(60_000);
        int status = c.getResponseCode();
        byte[] body;
        try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
            body = in == null ? new byte[0] : in.readAllBytes();
        }
        return new Answer(key, status, c.getHeaderField(CacheAnswers.SERVED_BY), c.getHeaderField(CacheAnswers.FAILOVER),
                status == 200 ? "" : new String(body, java.nio.charset.StandardCharsets.UTF_8));
    }
}
