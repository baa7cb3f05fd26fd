package io.ketama.router.caching;

/** Whether a shared cache may store a response (RFC 9111 §3, §3.5, §5.2). */
final class Storability {

    private Storability() {
    }

    static boolean storable(CacheRequest request, OriginAnswer answer, CacheSettings settings) {
        int status = answer.status();
        if (!request.method().equals("GET") || !StatusCodes.isFinal(status) || status == 206 || status == 304) {
            return false; // GET only: a HEAD answer has no body to serve a GET with; partial content is not stored
        }
        if (RequestFacts.of(request).cc().noStore()) {
            return false;
        }
        AnswerFacts facts = AnswerFacts.of(answer, settings);
        CacheControl cc = facts.cc();
        boolean understood = StatusCodes.isUnderstood(status);
        if (cc.mustUnderstand() ? !understood : cc.noStore()) {
            return false; // §5.2.2.3: must-understand lets an understood status override no-store, and only that
        }
        if (cc.isPrivate()) {
            return false; // §5.2.2.7: unqualified private: never in a shared cache
        }
        if (request.headers().has("Authorization") && !(cc.isPublic() || cc.mustRevalidate() || cc.sMaxage() >= 0)) {
            return false; // §3.5
        }
        if (!settings.storeSetCookie() && answer.headers().has("Set-Cookie")) {
            return false;
        }
        VaryFields.Vary vary = facts.vary();
        if (vary.star() || vary.names() != null && vary.names().length > settings.maxVaryFields()) {
            return false; // §4.1: Vary * never matches; a Vary of many fields fragments the cache without bound
        }
        return cc.isPublic() || facts.hasExpires(answer) || cc.hasLifetime() || StatusCodes.isHeuristicallyCacheable(status);
    }
}
