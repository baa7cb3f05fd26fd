package io.ketama.router.caching;

import java.util.List;

/**
 * Evaluating a request's preconditions against a stored answer, in the order of RFC 9110 §13.2.2,
 * so a cache can answer a conditional request itself ({@code 304}, {@code 412}).
 */
final class Preconditions {

    private Preconditions() {
    }

    static int evaluate(CacheRequest request, OriginAnswer answer) {
        int status = answer.status();
        if (!StatusCodes.isSuccessful(status)) {
            return status; // §13.2.1: preconditions apply only where the answer would be 2xx
        }
        HttpFields rq = request.headers();
        HttpFields headers = answer.headers();
        String etag = headers.first("ETag");
        long lastModified = HttpDates.parse(headers.first("Last-Modified"));
        boolean getOrHead = request.method().equals("GET") || request.method().equals("HEAD");

        // 1. If-Match, else 2. If-Unmodified-Since
        if (rq.has("If-Match")) {
            if (!EntityTags.anyMatches(FieldLists.elements(rq, "If-Match"), etag, true)) {
                return 412;
            }
        } else if (rq.has("If-Unmodified-Since")) {
            long since = HttpDates.parse(rq.first("If-Unmodified-Since"));
            if (since != HttpDates.INVALID && lastModified != HttpDates.INVALID && lastModified > since) {
                return 412;
            }
        }
        // 3. If-None-Match, else 4. If-Modified-Since (GET and HEAD only)
        if (rq.has("If-None-Match")) {
            List<String> tags = FieldLists.elements(rq, "If-None-Match");
            if (EntityTags.anyMatches(tags, etag, false)) {
                return getOrHead ? 304 : 412;
            }
        } else if (getOrHead && rq.has("If-Modified-Since") && rq.all("If-Modified-Since").size() == 1) {
            long since = HttpDates.parse(rq.first("If-Modified-Since"));
            // RFC 9111 §4.3.2: without Last-Modified, the stored Date, or when it arrived without one
            long modified = lastModified != HttpDates.INVALID ? lastModified : Freshness.dateOrArrival(answer);
            if (since != HttpDates.INVALID && modified <= since) {
                return 304;
            }
        }
        return status;
    }
}
