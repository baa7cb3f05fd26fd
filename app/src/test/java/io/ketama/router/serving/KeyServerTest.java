package io.ketama.router.serving;

import static org.assertj.core.api.Assertions.assertThat;

import io.ketama.router.caching.CachePolicy;
import io.ketama.router.caching.CacheRequest;
import io.ketama.router.caching.CacheSettings;
import io.ketama.router.caching.HttpDates;
import io.ketama.router.caching.HttpFields;
import io.ketama.router.caching.OriginAnswer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * How a key's holder serves requests, every step by the one policy, on a clock the test moves and an
 * origin the test answers by hand: one fetch per key at a time, whose answer reaches only the waiters
 * it may answer; revalidation with the stored validators and a {@code 304} that freshens; stale
 * answers where the origin fails or the answer allows it; {@code only-if-cached}.
 */
class KeyServerTest {

    private final AtomicLong clock = new AtomicLong(1_800_000_000_000L);
    private final HandOrigin origin = new HandOrigin();
    private final KeyServer server = new KeyServer(new LocalCache(1 << 20), origin, new CachePolicy(CacheSettings.defaults()),
            "m", clock::get);

    /** An origin whose every request waits until the test answers it. */
    private final class HandOrigin implements Origin {
        final List<OriginRequest> requests = new ArrayList<>();
        final List<CompletableFuture<OriginAnswer>> answers = new ArrayList<>();

        @Override
        public synchronized CompletionStage<OriginAnswer> fetch(OriginRequest request) {
            requests.add(request);
            CompletableFuture<OriginAnswer> answer = new CompletableFuture<>();
            answers.add(answer);
            return answer;
        }

        /** Answers the {@code i}-th request with {@code status} and {@code fields}, arrived now. */
        void answer(int i, int status, String body, String... fields) {
            answers.get(i).complete(new OriginAnswer(status, HttpFields.of(fields).with("Date", HttpDates.format(clock.get())),
                    body.getBytes(StandardCharsets.US_ASCII), clock.get(), 0));
        }
    }

    private static KeyRequest get(String key, String... fields) {
        return new KeyRequest(key, "/" + key, CacheRequest.get(HttpFields.of(fields)));
    }

    private static Served now(CompletionStage<Served> stage) throws Exception {
        return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static String body(Served served) {
        return new String(served.answer().body(), StandardCharsets.US_ASCII);
    }

    @Test
    void aFreshStoredAnswerIsServedWithoutTheOrigin_rfc9111_4_2() throws Exception {
        CompletionStage<Served> first = server.serve(get("k"), null);
        origin.answer(0, 200, "v1", "Cache-Control", "max-age=60");
        assertThat(now(first).cache()).isEqualTo(CacheStatus.MISS);
        clock.addAndGet(59_000);
        assertThat(server.hit(get("k")).cache()).isEqualTo(CacheStatus.HIT);
        assertThat(body(now(server.serve(get("k"), null)))).isEqualTo("v1");
        assertThat(origin.requests).hasSize(1);
    }

    @Test
    void concurrentRequestsForOneKeyFetchOnceAndShareAStoredAnswer() throws Exception {
        List<CompletionStage<Served>> served = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            served.add(server.serve(get("k"), null));
        }
        assertThat(origin.requests).hasSize(1);
        assertThat(served).allSatisfy(s -> assertThat(s.toCompletableFuture()).isNotDone());
        origin.answer(0, 200, "shared", "Cache-Control", "max-age=60");
        for (CompletionStage<Served> s : served) {
            assertThat(body(now(s))).isEqualTo("shared");
        }
        assertThat(origin.requests).hasSize(1);
    }

    @Test
    void waitersAreNeverHandedAnAnswerThatWasNotStoredTheyAskTheOriginThemselves() throws Exception {
        CompletionStage<Served> alice = server.serve(get("k", "Cookie", "session=alice"), null);
        CompletionStage<Served> bob = server.serve(get("k", "Cookie", "session=bob"), null);
        assertThat(origin.requests).hasSize(1);
        origin.answer(0, 200, "for alice", "Cache-Control", "private, max-age=60");
        assertThat(body(now(alice))).isEqualTo("for alice");
        assertThat(bob.toCompletableFuture()).as("bob waits for his own answer").isNotDone();
        assertThat(origin.requests).hasSize(2);
        assertThat(origin.requests.get(1).headers().first("Cookie")).isEqualTo("session=bob");
        origin.answer(1, 200, "for bob", "Cache-Control", "private, max-age=60");
        assertThat(body(now(bob))).isEqualTo("for bob");
        assertThat(server.hit(get("k"))).as("nothing stored").isNull();
    }

    @Test
    void waitersOfAnotherVariantAskTheOriginThemselves_rfc9111_4_1() throws Exception {
        CompletionStage<Served> english = server.serve(get("k", "Accept-Language", "en"), null);
        CompletionStage<Served> german = server.serve(get("k", "Accept-Language", "de"), null);
        CompletionStage<Served> englishToo = server.serve(get("k", "Accept-Language", "en"), null);
        origin.answer(0, 200, "hello", "Cache-Control", "max-age=60", "Vary", "Accept-Language");
        assertThat(body(now(english))).isEqualTo("hello");
        assertThat(body(now(englishToo))).isEqualTo("hello");
        assertThat(origin.requests).hasSize(2);
        origin.answer(1, 200, "hallo", "Cache-Control", "max-age=60", "Vary", "Accept-Language");
        assertThat(body(now(german))).isEqualTo("hallo");
        assertThat(body(server.hit(get("k", "Accept-Language", "en")))).isEqualTo("hello");
        assertThat(body(server.hit(get("k", "Accept-Language", "de")))).isEqualTo("hallo");
    }

    @Test
    void aFailedFetchStoresNothingAndFailsItsWaitersAlike() {
        CompletionStage<Served> one = server.serve(get("k"), null);
        CompletionStage<Served> two = server.serve(get("k"), null);
        origin.answers.get(0).completeExceptionally(new OriginUnavailableException("down", null));
        assertThat(one.toCompletableFuture()).failsWithin(10, TimeUnit.SECONDS).withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(OriginUnavailableException.class);
        assertThat(two.toCompletableFuture()).failsWithin(10, TimeUnit.SECONDS).withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(OriginUnavailableException.class);
        assertThat(server.cache().fetchesUnderWay()).isZero();
        assertThat(origin.requests).hasSize(1);
    }

    @Test
    void aStaleAnswerIsRevalidatedWithItsValidatorsAndA304FreshensIt_rfc9111_4_3() throws Exception {
        CompletionStage<Served> first = server.serve(get("k"), null);
        origin.answer(0, 200, "body", "Cache-Control", "max-age=10", "ETag", "\"v1\"", "X-Kept", "old");
        now(first);
        clock.addAndGet(11_000);
        CompletionStage<Served> second = server.serve(get("k"), null);
        assertThat(origin.requests).hasSize(2);
        assertThat(origin.requests.get(1).headers().first("If-None-Match")).isEqualTo("\"v1\"");
        origin.answer(1, 304, "", "Cache-Control", "max-age=10", "ETag", "\"v1\"", "X-Kept", "new");
        Served revalidated = now(second);
        assertThat(revalidated.cache()).isEqualTo(CacheStatus.REVALIDATED);
        assertThat(body(revalidated)).isEqualTo("body");
        assertThat(revalidated.answer().headers().first("X-Kept")).isEqualTo("new");
        clock.addAndGet(5_000);
        assertThat(server.hit(get("k"))).as("fresh again for 10 s").isNotNull();
    }

    @Test
    void aStaleAnswerStandsInWhenTheOriginFailsUnlessItForbidsIt_rfc9111_4_2_4() throws Exception {
        CompletionStage<Served> first = server.serve(get("lenient"), null);
        origin.answer(0, 200, "old", "Cache-Control", "max-age=1");
        now(first);
        CompletionStage<Served> strictFirst = server.serve(get("strict"), null);
        origin.answer(1, 200, "old", "Cache-Control", "max-age=1, must-revalidate");
        now(strictFirst);
        clock.addAndGet(3_000);

        CompletionStage<Served> lenient = server.serve(get("lenient"), null);
        origin.answers.get(2).completeExceptionally(new OriginUnavailableException("refused", null));
        Served stale = now(lenient);
        assertThat(stale.cache()).isEqualTo(CacheStatus.STALE);
        assertThat(body(stale)).isEqualTo("old");

        CompletionStage<Served> strict = server.serve(get("strict"), null);
        origin.answer(3, 503, "down");
        assertThat(now(strict).answer().status()).as("must-revalidate: the origin's 503 reaches the client").isEqualTo(503);
    }

    @Test
    void withinStaleWhileRevalidateTheStaleAnswerServesAndOneBackgroundFetchRefreshesIt_rfc5861_3() throws Exception {
        CompletionStage<Served> first = server.serve(get("k"), null);
        origin.answer(0, 200, "v1", "Cache-Control", "max-age=1, stale-while-revalidate=60");
        now(first);
        clock.addAndGet(2_000);
        Served stale = now(server.serve(get("k"), null));
        Served staleToo = now(server.serve(get("k"), null));
        assertThat(stale.cache()).isEqualTo(CacheStatus.STALE);
        assertThat(body(staleToo)).isEqualTo("v1");
        assertThat(origin.requests).as("one background validation").hasSize(2);
        origin.answer(1, 200, "v2", "Cache-Control", "max-age=60");
        assertThat(body(server.hit(get("k")))).isEqualTo("v2");
    }

    @Test
    void onlyIfCachedIsNeverSentToTheOrigin_rfc9111_5_2_1_7() {
        CompletionStage<Served> none = server.serve(get("k", "Cache-Control", "only-if-cached"), null);
        assertThat(none.toCompletableFuture()).failsWithin(10, TimeUnit.SECONDS).withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(NotCachedException.class);
        assertThat(origin.requests).isEmpty();
    }

    @Test
    void theClientsPreconditionsAndRangeNeverReachTheOriginTheCacheFetchesWhole_rfc9111_4_3_1() throws Exception {
        CompletionStage<Served> first = server.serve(get("k", "If-None-Match", "\"x\"", "Range", "bytes=0-1", "Accept", "text/plain"),
                null);
        OriginRequest asked = origin.requests.get(0);
        assertThat(asked.headers().has("If-None-Match")).isFalse();
        assertThat(asked.headers().has("Range")).isFalse();
        assertThat(asked.headers().first("Accept")).isEqualTo("text/plain");
        assertThat(asked.method()).isEqualTo("GET");
        assertThat(asked.target()).isEqualTo("/k");
        origin.answer(0, 200, "whole", "Cache-Control", "max-age=60");
        assertThat(body(now(first))).isEqualTo("whole");
    }

    @Test
    void invalidatingAKeyDropsEveryVariant_rfc9111_4_4() throws Exception {
        CompletionStage<Served> first = server.serve(get("k"), null);
        origin.answer(0, 200, "v1", "Cache-Control", "max-age=60");
        now(first);
        server.invalidate("k");
        assertThat(server.hit(get("k"))).isNull();
    }

    @Test
    void theClientWhoseFetchStoredAnAnswerGetsTheFieldsTheStoreLeavesOut_rfc9111_5_2_2_4_and_5_2_2_7() throws Exception {
        CompletionStage<Served> first = server.serve(get("k"), null);
        origin.answer(0, 200, "v1", "Cache-Control", "max-age=60, no-cache=\"X-Trace\", private=\"X-Owner\"",
                "X-Trace", "t1", "X-Owner", "alice", "X-Kept", "yes");
        HttpFields toFirst = now(first).answer().headers();
        assertThat(toFirst.first("X-Trace")).isEqualTo("t1");
        assertThat(toFirst.first("X-Owner")).isEqualTo("alice");

        Served hit = now(server.serve(get("k"), null));
        assertThat(hit.cache()).isEqualTo(CacheStatus.HIT);
        assertThat(hit.answer().headers().first("X-Kept")).isEqualTo("yes");
        assertThat(hit.answer().headers().has("X-Trace")).as("no-cache=X-Trace: not reused without validation").isFalse();
        assertThat(hit.answer().headers().has("X-Owner")).as("private=X-Owner: not in a shared cache").isFalse();
        assertThat(origin.requests).hasSize(1);
    }

    @Test
    void anAnswerAPurgeOvertookReachesItsClientAndItsWaitersButIsNotStored() throws Exception {
        CompletionStage<Served> first = server.serve(get("k"), null);
        CompletionStage<Served> waiter = server.serve(get("k"), null);
        server.purge(List.of("k"), java.util.Set.of()); // the origin changed and was purged while the old answer was on its way
        origin.answer(0, 200, "old", "Cache-Control", "max-age=60");
        assertThat(body(now(first))).as("the client that asked before the purge").isEqualTo("old");
        assertThat(server.cache().peek("k")).as("stored nowhere").isNull();
        origin.answer(1, 200, "new", "Cache-Control", "max-age=60");
        assertThat(body(now(waiter))).as("a waiter takes only a stored answer: it asked the origin itself").isEqualTo("new");
        assertThat(server.cache().peek("k")).as("it too started before the purge: not stored either").isNull();
        CompletionStage<Served> later = server.serve(get("k"), null);
        origin.answer(2, 200, "new", "Cache-Control", "max-age=60");
        assertThat(now(later).cache()).isEqualTo(CacheStatus.MISS);
        assertThat(server.hit(get("k")).cache()).as("a fetch started after the purge stores its answer").isEqualTo(CacheStatus.HIT);
        assertThat(origin.requests).hasSize(3);
    }
}
