package io.ketama.router.serving;

import io.ketama.router.caching.HttpFields;
import io.ketama.router.caching.OriginAnswer;
import java.util.concurrent.CompletionStage;

/**
 * Where answers come from: the origin behind the cache. Implementations are thread-safe and never
 * block the calling thread: the answer arrives through the returned stage, on a thread of the
 * implementation's choosing.
 */
public interface Origin {

    /**
     * Sends {@code request} to the origin.
     *
     * @return the origin's answer, whatever its status, with its end-to-end fields, aged as it
     *         arrived ({@link io.ketama.router.caching.CachePolicy#initialAgeMillis}); completed
     *         exceptionally with {@link OriginUnavailableException} when the origin gave no answer at
     *         all (refused, timed out, broken) or {@link OverloadedException} when this member has
     *         too many fetches under way, or no room left in its {@link BodyBudget} for this one's body
     */
    CompletionStage<OriginAnswer> fetch(OriginRequest request);

    /** A plain {@code GET} of {@code key} as the {@code /cache/} mount names it: {@code /<key>} at the origin, no fields. */
    default CompletionStage<OriginAnswer> fetch(String key) {
        return fetch(OriginRequest.get("/" + key, HttpFields.EMPTY));
    }
}
