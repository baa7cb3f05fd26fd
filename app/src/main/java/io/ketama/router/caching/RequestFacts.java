package io.ketama.router.caching;

/**
 * What the policy reads of a request, once, kept in the request's {@code directives} slot.
 *
 * @param cc            its {@code Cache-Control} directives
 * @param noCache       whether it asks for validation: {@code no-cache}, or {@code Pragma: no-cache}
 *                      when it has no {@code Cache-Control} at all (RFC 9111 §5.4)
 */
record RequestFacts(CacheControl cc, boolean noCache) {

    /** A request with neither {@code Cache-Control} nor {@code Pragma}: the common case, shared. */
    static final RequestFacts NONE = new RequestFacts(CacheControl.NONE, false);

    static RequestFacts of(CacheRequest request) {
        if (request.directives instanceof RequestFacts facts) {
            return facts;
        }
        RequestFacts facts = read(request.headers());
        request.directives = facts;
        return facts;
    }

    private static RequestFacts read(HttpFields headers) {
        boolean hasCacheControl = headers.has("Cache-Control");
        if (!hasCacheControl && !headers.has("Pragma")) {
            return NONE;
        }
        if (hasCacheControl) {
            CacheControl cc = CacheControlParser.parse(headers, "Cache-Control");
            return new RequestFacts(cc, cc.noCache() || !cc.noCacheFields().isEmpty());
        }
        boolean pragmaNoCache = false;
        for (String element : FieldLists.elements(headers, "Pragma")) {
            pragmaNoCache |= element.equalsIgnoreCase("no-cache");
        }
        return pragmaNoCache ? new RequestFacts(CacheControl.NONE, true) : NONE;
    }
}
