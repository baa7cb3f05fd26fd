package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.quarkus.Selection;
import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.Origin;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Bounded under overload, with real members whose origins are held back on purpose: a member with
 * its forwards at the limit (bulkhead) is skipped for the next candidate, or the request gets a
 * 503 {@code overloaded} with {@code Retry-After} at once when no candidate has room; a member
 * with its origin fetches at the limit refuses more the same way; and past the member's admission
 * limit requests are turned away before any work. Nothing waits in an unbounded queue and no
 * thread piles up: the refusals arrive while the held requests are still held.
 */
@QuarkusTest
@TestProfile(SheddingTest.SmallLimits.class)
class SheddingTest extends ClusterTest {

    static final int ADMISSION = 10;
    static final int BULKHEAD = 4;
    static final int WAITING = 2;

    public static class SmallLimits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "ketama.router.admission.max-in-flight", Integer.toString(ADMISSION),
                    "ketama.router.forward.bulkhead.max-in-flight", Integer.toString(BULKHEAD),
                    "ketama.router.forward.bulkhead.max-waiting", Integer.toString(WAITING),
                    // held requests must stay held, not time out
                    "ketama.router.forward.timeout", "60s",
                    "ketama.router.forward.max-retries", "0");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(LoopbackCluster.class));
        }
    }

    @Inject
    CacheAdmission admission;

    @Inject
    io.micrometer.core.instrument.MeterRegistry registry;

    TestMember held;
    TestMember heldToo;
    TestMember spare;
    TestMember narrow;
    /** Completing the current gate lets every held origin fetch answer. */
    final AtomicReference<CompletableFuture<Void>> gate = new AtomicReference<>(new CompletableFuture<>());
    ExecutorService clients;

    @Override
    String keyPrefix() {
        return "shed-";
    }

    @Override
    void addMembers() {
        DemoOrigin demo = new DemoOrigin(Duration.ZERO);
        Origin heldOrigin = key -> gate.get().thenCompose(v -> demo.fetch(key));
        held = cluster.add(Set.of("held"), heldOrigin);
        heldToo = cluster.add(Set.of("held-too"), heldOrigin);
        spare = cluster.add(Set.of());
        narrow = cluster.add(Set.of("narrow"), heldOrigin, 2);
        clients = Executors.newFixedThreadPool(32);
    }

    @AfterEach
    void releaseHeldFetches() {
        gate.getAndSet(new CompletableFuture<>()).complete(null);
    }

    @AfterAll
    void stopClients() {
        clients.shutdownNow();
    }

    private static boolean is(TestMember m, com.hazelcast.cluster.Member other) {
        return m.member().getUuid().equals(other.getUuid());
    }

    private final Set<String> used = new java.util.HashSet<>();

    /** {@code n} keys no test here has used yet. */
    private List<String> keys(Set<String> features, Predicate<Selection> wanted, int n) {
        List<String> keys = new ArrayList<>();
        while (keys.size() < n) {
            String key = cluster.keyWhere(features, wanted, k -> !used.contains(k));
            used.add(key);
            keys.add(key);
        }
        return keys;
    }

    private Future<Response> send(String key, String features) {
        return clients.submit(() -> features == null ? given().get("/cache/" + key)
                : given().header("X-Ketama-Features", features).get("/cache/" + key));
    }

    /** Status, server and problem of the requests already answered. */
    private static List<String> answered(List<Future<Response>> requests) {
        List<String> out = new ArrayList<>();
        for (Future<Response> f : requests) {
            if (f.isDone()) {
                try {
                    Response r = f.get();
                    out.add(r.statusCode() + " " + r.header(CacheAnswers.SERVED_BY) + " " + (r.statusCode() == 200 ? "" : r.asString()));
                } catch (Exception e) {
                    out.add(e.toString());
                }
            }
        }
        return out;
    }

    private static Set<String> threadNames() {
        Set<String> names = new java.util.TreeSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            names.add(t.getName());
        }
        return names;
    }

    private static boolean isHazelcastBackground(String threadName) {
        return threadName.matches("hz\\.[^.]+\\.cached\\.thread-\\d+");
    }

    /** Forwards waiting in this member's bulkhead for {@code member} (its guard's gauge). */
    private double waitingFor(TestMember member) {
        var gauge = registry.find("ketama.router.forward.waiting").tag("member", member.address()).gauge();
        return gauge == null ? 0 : gauge.value();
    }

    private static void assertOverloaded(Response r, String detail) {
        r.then().statusCode(503)
                .contentType(Problem.MEDIA_TYPE)
                .header("Retry-After", "1")
                .body("type", org.hamcrest.Matchers.equalTo("urn:ketama-router:problem:overloaded"))
                .body("detail", org.hamcrest.Matchers.containsString(detail));
    }

    /** Fills {@code member}'s bulkhead in this member: {@link #BULKHEAD} forwards at it, {@link #WAITING} waiting. */
    private List<Future<Response>> fillBulkhead(TestMember member, String feature) throws Exception {
        List<Future<Response>> heldRequests = new ArrayList<>();
        for (String key : keys(Set.of(feature), s -> is(member, s.owner()), BULKHEAD + WAITING)) {
            heldRequests.add(send(key, feature));
        }
        Cluster.await(BULKHEAD + " forwards held at " + member.address() + ", " + member.receiver.inFlight() + " are",
                () -> member.receiver.inFlight() == BULKHEAD);
        // and the rest queued in its bulkhead: until then a further forward would queue, not be refused
        Cluster.await(WAITING + " forwards waiting for " + member.address() + ", " + waitingFor(member) + " are",
                () -> waitingFor(member) == WAITING);
        return heldRequests;
    }

    @Test
    void aMemberWithItsForwardsAtTheLimitIsSkippedOrTheRequestIs503AtOnce() throws Exception {
        List<Future<Response>> heldRequests = fillBulkhead(held, "held");

        // only the held member has "held": no other candidate, so a fast 503
        String onlyThere = keys(Set.of("held"), s -> is(held, s.owner()), 1).get(0);
        assertOverloaded(given().header("X-Ketama-Features", "held").get("/cache/" + onlyThere), "at its limit");

        // a key of the held member without features: its next candidate serves it
        String withStandIn = keys(Set.of(), s -> is(held, s.owner()) && is(spare, s.candidates().get(1)), 1).get(0);
        given().get("/cache/" + withStandIn).then().statusCode(200)
                .header(CacheAnswers.OWNER, held.address())
                .header(CacheAnswers.SERVED_BY, spare.address())
                .header(CacheAnswers.FAILOVER, "1");

        assertThat(heldRequests).as("the held requests, still held while the others were answered")
                .noneMatch(Future::isDone);
        gate.get().complete(null);
        for (Future<Response> f : heldRequests) {
            f.get(60, TimeUnit.SECONDS).then().statusCode(200).header(CacheAnswers.SERVED_BY, held.address());
        }
        String metrics = given().get("/q/metrics").then().extract().asString();
        assertThat(metrics).containsPattern("ketama_router_forward_busy_total\\{[^}]*member=\""
                + held.address() + "\"[^}]*} [1-9]");
    }

    @Test
    void aMemberWithItsOriginFetchesAtTheLimitRefusesMoreAtOnce() throws Exception {
        List<String> keys = keys(Set.of("narrow"), s -> is(narrow, s.owner()), 3);
        int before = narrow.originFetches.get(); // other tests' keys may have reached it, none is under way now
        List<Future<Response>> heldRequests = List.of(send(keys.get(0), "narrow"), send(keys.get(1), "narrow"));
        Cluster.await(() -> "2 origin fetches held at " + narrow.address() + "; fetches " + (narrow.originFetches.get() - before)
                + ", answers so far " + answered(heldRequests), () -> narrow.originFetches.get() == before + 2);

        assertOverloaded(given().header("X-Ketama-Features", "narrow").get("/cache/" + keys.get(2)), "origin fetches under way");
        assertThat(narrow.originFetches).as("the refused key never reached the origin").hasValue(before + 2);
        assertThat(heldRequests).noneMatch(Future::isDone);
        gate.get().complete(null);
        for (Future<Response> f : heldRequests) {
            f.get(60, TimeUnit.SECONDS).then().statusCode(200).header(CacheAnswers.CACHE, "MISS");
        }
    }

    @Test
    void pastTheAdmissionLimitRequestsAreTurnedAwayBeforeAnyWorkAndNoThreadPilesUp() throws Exception {
        List<Future<Response>> heldRequests = new ArrayList<>(fillBulkhead(held, "held"));
        for (String key : keys(Set.of("held-too"), s -> is(heldToo, s.owner()), ADMISSION - BULKHEAD - WAITING)) {
            heldRequests.add(send(key, "held-too"));
        }
        Cluster.await("4 forwards held at " + heldToo.address(), () -> heldToo.receiver.inFlight() == ADMISSION - BULKHEAD - WAITING);
        Cluster.await(() -> ADMISSION + " requests under way here, " + admission.inFlight() + " are",
                () -> admission.inFlight() == ADMISSION);
        int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
        long startedBefore = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();
        Set<String> namesBefore = threadNames();
        for (int i = 0; i < 200; i++) {
            // whichever member owns the key, nothing is asked of it
            assertOverloaded(given().get("/cache/shed-admission-" + i), ADMISSION + " requests under way");
        }
        long started = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount() - startedBefore;
        Set<String> appeared = threadNames();
        appeared.removeAll(namesBefore);
        // Hazelcast's cached pool (hz.<instance>.cached.thread-N) serves every test member in this JVM
        // with background tasks on its own schedule, so its threads start whether or not requests come:
        // they are not the refusals' doing. Any other new thread is counted.
        long background = appeared.stream().filter(SheddingTest::isHazelcastBackground).count();
        assertThat(started - background).as("threads started while 200 requests were turned away; new: " + appeared).isLessThanOrEqualTo(4);
        assertThat(ManagementFactory.getThreadMXBean().getThreadCount() - background).isLessThanOrEqualTo(threadsBefore + 4);
        assertThat(heldRequests).noneMatch(Future::isDone);
        given().get("/q/metrics").then().statusCode(200)
                .body(org.hamcrest.Matchers.containsString("ketama_router_admission_refused_total"))
                .body(org.hamcrest.Matchers.containsString("ketama_router_admission_in_flight " + ADMISSION + ".0"))
                // refusals are counted under the resource's URI, not one timer per refused key
                .body(org.hamcrest.Matchers.containsString("status=\"503\",uri=\"/cache/{key: .*}\""))
                .body(org.hamcrest.Matchers.not(org.hamcrest.Matchers.containsString("uri=\"/cache/shed-admission-")));
        gate.get().complete(null);
        for (Future<Response> f : heldRequests) {
            f.get(60, TimeUnit.SECONDS).then().statusCode(200);
        }
        Cluster.await("admission to be free again", () -> given().get("/cache/shed-admission-after").statusCode() == 200);
    }
}
