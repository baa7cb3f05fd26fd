package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import java.util.concurrent.CompletionStage;

/**
 * Where keys come from on a cache miss. Implementations are thread-safe and never block the
 * calling thread: the answer arrives through the returned stage, on a thread of the
 * implementation's choosing.
 */
public interface Origin {

    /**
     * Fetches {@code key}: the raw request target after {@code /cache/}, one char per byte
     * (ISO-8859-1), query string included.
     *
     * @return the origin's answer, whatever its status; completed exceptionally with
     *         {@link OriginUnavailableException} when the origin gave no answer at all (refused,
     *         timed out, broken) or {@link OverloadedException} when this member has too many
     *         fetches under way, or no room left in its {@link BodyBudget} for this one's body
     */
    CompletionStage<OriginAnswer> fetch(String key);
}
