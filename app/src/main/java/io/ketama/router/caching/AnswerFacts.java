package io.ketama.router.caching;

/**
 * What the policy reads of a stored answer, read once and kept in the answer's {@code directives} slot
 * so that deciding a hit parses nothing: the directives in force for this cache, the freshness
 * lifetime, whether it has a validator, and its {@code Vary}.
 *
 * @param settings        the settings these facts were read with (another policy reads them anew)
 * @param cc              the directives in force: a valid targeted field's, else {@code Cache-Control}'s
 * @param targeted        whether a targeted field (RFC 9213) replaced {@code Cache-Control} and {@code Expires}
 * @param lifetimeMillis  the freshness lifetime (RFC 9111 §4.2.1)
 * @param hasValidator    whether it has an {@code ETag} or a valid {@code Last-Modified} to validate with
 * @param vary            its {@code Vary}
 */
record AnswerFacts(CacheSettings settings, CacheControl cc, boolean targeted, long lifetimeMillis, boolean hasValidator,
                   VaryFields.Vary vary) {

    /** The facts of {@code answer}, read on first use for these settings. */
    static AnswerFacts of(OriginAnswer answer, CacheSettings settings) {
        if (answer.directives instanceof AnswerFacts facts && (facts.settings == settings || facts.settings.equals(settings))) {
            return facts;
        }
        AnswerFacts facts = read(answer, settings);
        answer.directives = facts; // a benign race: every thread reads the same facts
        return facts;
    }

    private static AnswerFacts read(OriginAnswer answer, CacheSettings settings) {
        HttpFields headers = answer.headers();
        CacheControl targeted = TargetedFields.select(headers, settings.targetedFields());
        CacheControl cc = targeted != null ? targeted : CacheControlParser.parseShared(headers, "Cache-Control");
        long lifetime = Freshness.lifetimeMillis(answer, cc, targeted == null, settings);
        boolean validator = headers.has("ETag") || HttpDates.parse(headers.first("Last-Modified")) != HttpDates.INVALID;
        return new AnswerFacts(settings, cc, targeted != null, lifetime, validator, VaryFields.vary(headers));
    }

    /** Whether {@code Expires} counts (no targeted field replaced it) and the answer has one. */
    boolean hasExpires(OriginAnswer answer) {
        return !targeted && answer.headers().has("Expires");
    }
}
