package io.ketama.router.serving;

/**
 * Where keys come from on a cache miss. Implementations are thread-safe and blocking.
 */
public interface Origin {

    /**
     * Fetches {@code key}: the raw request target after {@code /cache/}, one char per byte
     * (ISO-8859-1), query string included.
     *
     * @return the origin's answer, whatever its status
     * @throws OriginUnavailableException when the origin gave no answer at all (refused, timed out, broken)
     */
    OriginAnswer fetch(String key);
}
