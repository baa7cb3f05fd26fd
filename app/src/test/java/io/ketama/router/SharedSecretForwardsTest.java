package io.ketama.router;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import io.ketama.router.forwarding.channel.ForwardSecret;
import io.ketama.router.forwarding.http.HttpForwarding;
import io.ketama.router.serving.DemoOrigin;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The app with {@code ketama.router.forward.secret} set, among real members on 127.0.0.1, run once
 * per sending transport (the subclasses): a member that shares the secret serves the app's
 * forwards; a member that requires another secret refuses them and the request is answered by the
 * next candidate, nothing fetched there; the app's own forward path on its public port answers a
 * stranger 401 and a member 200.
 */
abstract class SharedSecretForwardsTest extends ClusterTest {

    static final String SECRET = "shared-secret-forwards-test-0123";
    static final ForwardSecret OTHER = ForwardSecret.of("a-different-cluster-secret-0123");

    /** The app with the secret and {@code ketama.router.forward.transport} set. */
    abstract static class WithSecret extends TransportsTest.Transport {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(super.getConfigOverrides());
            config.put("ketama.router.forward.secret", SECRET);
            return config;
        }
    }

    TestMember sharing;
    TestMember stranger;

    @Override
    void addMembers() {
        sharing = cluster.add(Set.of("s"), new DemoOrigin(Duration.ZERO), 256, ForwardSecret.of(SECRET));
        stranger = cluster.add(Set.of("s"), new DemoOrigin(Duration.ZERO), 256, OTHER);
    }

    @Test
    void aMemberThatSharesTheSecretServesTheForwards() {
        String key = cluster.keyWhere(Set.of("s"), s -> is(s.owner(), sharing.member()), cluster::cachedByNoMember);
        given().header("X-Ketama-Features", "s").get("/cache/" + key).then().statusCode(200)
                .header(CacheAnswers.SERVED_BY, sharing.address())
                .header(CacheAnswers.CACHE, "MISS");
        given().header("X-Ketama-Features", "s").get("/cache/" + key).then().statusCode(200)
                .header(CacheAnswers.SERVED_BY, sharing.address())
                .header(CacheAnswers.CACHE, "HIT");
        assertThat(sharing.cached(key)).isNotNull();
    }

    @Test
    void aMemberWithAnotherSecretRefusesAndTheNextCandidateAnswers() {
        int fetchesBefore = stranger.originFetches.get();
        for (int i = 0; i < 3; i++) {
            String key = cluster.keyWhere(Set.of("s"), s -> is(s.owner(), stranger.member()), cluster::cachedByNoMember);
            byte[] body = given().header("X-Ketama-Features", "s").get("/cache/" + key).then().statusCode(200)
                    .header(CacheAnswers.OWNER, stranger.address())
                    .header(CacheAnswers.SERVED_BY, not(stranger.address()))
                    .extract().asByteArray();
            assertThat(body).isEqualTo(DemoOrigin.contentFor(key));
            assertThat(stranger.cached(key)).isNull();
        }
        assertThat(stranger.originFetches.get()).as("the refusing member fetched nothing").isEqualTo(fetchesBefore);
    }

    @Test
    void theForwardPathOnThePublicPortAnswersAStranger401() {
        String key = keyPrefix() + "door";
        given().get(HttpForwarding.PREFIX + key).then().statusCode(401)
                .header("WWW-Authenticate", "X-Ketama-Forward-Secret")
                .body(containsString("ketama.router.forward.secret"));
        given().header("X-Ketama-Forward-Secret", "not-the-secret-0123456789").get(HttpForwarding.PREFIX + key).then()
                .statusCode(401);
        given().header("X-Ketama-Forward-Secret", SECRET).get(HttpForwarding.PREFIX + key).then().statusCode(200)
                .header("X-Ketama-Cache", "MISS");
    }
}
