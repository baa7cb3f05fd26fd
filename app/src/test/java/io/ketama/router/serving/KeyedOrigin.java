package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * A test's origin written by key, as the tests of the routing were before the service spoke HTTP
 * caching: the key is the origin target without its leading slash (the {@code /cache/} mount's
 * mapping), and every answer that says nothing of its freshness is given
 * {@code Cache-Control: max-age=3600}, which is what such a test means by "the origin's answer": one
 * the cache may keep. Tests of the caching rules themselves use real fields instead.
 */
public final class KeyedOrigin {

    private KeyedOrigin() {
    }

    /** An origin answering target {@code /k} with {@code byKey.apply("k")}, made storable for an hour where it says nothing. */
    public static Origin of(Function<String, CompletionStage<OriginAnswer>> byKey) {
        return request -> {
            String target = request.target();
            return byKey.apply(target.startsWith("/") ? target.substring(1) : target).thenApply(KeyedOrigin::storable);
        };
    }

    /** An origin answering target {@code /k} with {@code byKey.apply("k")} exactly as it says (its answers' fields untouched). */
    public static Origin asIs(Function<String, CompletionStage<OriginAnswer>> byKey) {
        return request -> {
            String target = request.target();
            return byKey.apply(target.startsWith("/") ? target.substring(1) : target);
        };
    }

    /** {@code answer} with {@code Cache-Control: max-age=3600} where it has no {@code Cache-Control}. */
    public static OriginAnswer storable(OriginAnswer answer) {
        if (answer == null || answer.headers().has("Cache-Control")) {
            return answer;
        }
        return answer.with(answer.headers().with("Cache-Control", "max-age=3600"), answer.responseTime(), answer.initialAgeMillis());
    }
}
