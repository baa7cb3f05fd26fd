package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.router.serving.DemoOrigin;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * One origin fetch per key at a time on its owner: many concurrent requests for a key nobody has
 * cached, all waiting on the owner while its one origin fetch is held back, make exactly one
 * origin request and all get its answer.
 */
@QuarkusTest
@WithTestResource(value = LoopbackCluster.class, scope = TestResourceScope.MATCHING_RESOURCES)
class SingleFlightTest extends ClusterTest {

    private static final int REQUESTS = 16;

    TestMember owner;
    final CompletableFuture<Void> release = new CompletableFuture<>();

    @Override
    String keyPrefix() {
        return "sf-";
    }

    @Override
    void addMembers() {
        DemoOrigin demo = new DemoOrigin(Duration.ZERO);
        owner = cluster.add(Set.of(), key -> release.thenCompose(v -> demo.fetch(key)));
    }

    @AfterAll
    void releaseTheHeldFetch() {
        release.complete(null);
    }

    @Test
    void concurrentMissesForOneKeyMakeOneOriginRequest() throws Exception {
        String key = cluster.keyWhere(Set.of(), s -> is(s.owner(), owner.member()));
        ExecutorService clients = Executors.newFixedThreadPool(REQUESTS);
        try {
            List<Future<Response>> answers = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                answers.add(clients.submit(() -> given().get("/cache/" + key)));
            }
            // every request is on the owner, waiting, before the one fetch may answer
            Cluster.await(REQUESTS + " forwarded requests waiting on the owner, " + owner.receiver.inFlight() + " are",
                    () -> owner.receiver.inFlight() == REQUESTS);
            assertThat(owner.originFetches).as("origin requests while " + REQUESTS + " requests wait").hasValue(1);
            release.complete(null);
            for (Future<Response> f : answers) {
                Response r = f.get(60, TimeUnit.SECONDS);
                r.then().statusCode(200)
                        .header(CacheAnswers.SERVED_BY, owner.address())
                        .header(CacheAnswers.CACHE, "MISS");
                assertThat(r.asByteArray()).isEqualTo(DemoOrigin.contentFor(key));
            }
            assertThat(owner.originFetches).as("origin requests in all").hasValue(1);
            // the next answer comes from a cache: the owner's (HIT) or, the key being hot here after 16 requests,
            // this member's near copy of the owner's answer (NEAR); the owner holds it either way
            Response next = given().get("/cache/" + key);
            next.then().statusCode(200);
            assertThat(next.header(CacheAnswers.CACHE)).isIn("HIT", "NEAR");
            assertThat(next.asByteArray()).isEqualTo(DemoOrigin.contentFor(key));
            assertThat(owner.cached(key)).as("cached by its owner").isNotNull();
            assertThat(owner.originFetches).hasValue(1);
        } finally {
            clients.shutdownNow();
        }
    }
}
