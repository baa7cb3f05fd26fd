package io.ketama.router.caching;

import java.util.List;

/** The freshness lifetime of a response (RFC 9111 §4.2.1, §4.2.2). */
final class Freshness {

    private Freshness() {
    }

    /**
     * The freshness lifetime in ms of {@code answer} whose effective directives are {@code cc}: s-maxage
     * (this cache is shared), else max-age, else {@code Expires} minus {@code Date} (when
     * {@code useExpires}: not when a targeted field replaced it), else a heuristic where one is allowed.
     */
    static long lifetimeMillis(OriginAnswer answer, CacheControl cc, boolean useExpires, CacheSettings settings) {
        if (cc.sMaxage() >= 0) {
            return DeltaSeconds.millis(cc.sMaxage());
        }
        if (cc.maxAge() >= 0) {
            return DeltaSeconds.millis(cc.maxAge());
        }
        HttpFields headers = answer.headers();
        if (useExpires && headers.has("Expires")) {
            return expiresMillis(answer);
        }
        return heuristicMillis(answer, cc, settings);
    }

    /**
     * {@code Expires} minus {@code Date} (or the time of arrival when {@code Date} is missing or invalid),
     * at least 0. An invalid {@code Expires}, or several lines that disagree, mean already expired (RFC
     * 9111 §5.3, §4.2.1: "either the first occurrence should be used or the response should be
     * considered stale" — disagreeing lines are taken as stale, since no line is more credible).
     */
    static long expiresMillis(OriginAnswer answer) {
        List<String> lines = answer.headers().all("Expires");
        for (String line : lines) {
            if (!line.strip().equals(lines.get(0).strip())) {
                return 0;
            }
        }
        long expires = HttpDates.parse(lines.get(0));
        if (expires == HttpDates.INVALID) {
            return 0;
        }
        return Math.max(0, expires - dateOrArrival(answer));
    }

    /**
     * A heuristic lifetime (§4.2.2), only for a status that is heuristically cacheable or a response
     * marked {@code public}: {@code heuristicPercent} of the time since {@code Last-Modified}, at most
     * {@code heuristicMaxMillis}; without a valid {@code Last-Modified}, {@code defaultTtlMillis} (a
     * heuristic the operator chose). 0 for every other response: §4.2.2 forbids heuristics there.
     */
    static long heuristicMillis(OriginAnswer answer, CacheControl cc, CacheSettings settings) {
        if (!heuristicAllowed(answer.status(), cc)) {
            return 0;
        }
        long lastModified = HttpDates.parse(answer.headers().first("Last-Modified"));
        if (lastModified == HttpDates.INVALID) {
            return settings.defaultTtlMillis();
        }
        long sinceModified = Math.max(0, dateOrArrival(answer) - lastModified);
        long lifetime = sinceModified / 100 * settings.heuristicPercent() + sinceModified % 100 * settings.heuristicPercent() / 100;
        return Math.min(lifetime, settings.heuristicMaxMillis());
    }

    static boolean heuristicAllowed(int status, CacheControl cc) {
        return StatusCodes.isHeuristicallyCacheable(status) || cc.isPublic();
    }

    /** The answer's {@code Date}, or when it arrived where that is missing or invalid. */
    static long dateOrArrival(OriginAnswer answer) {
        long date = HttpDates.parse(answer.headers().first("Date"));
        return date == HttpDates.INVALID ? answer.responseTime() : date;
    }
}
