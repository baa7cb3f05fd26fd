package io.ketama.router.caching;

/** Conditional requests a cache sends (RFC 9111 §4.3.1) and the 304s it sends (RFC 9110 §15.4.5). */
final class Validation {

    /** The client's preconditions and range: the cache asks the origin for the whole and decides itself. */
    private static final String[] CLIENT_CONDITIONS = {"If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since",
            "If-Range", "Range"};

    /** What a 304 repeats of the answer it stands for. */
    private static final String[] NOT_MODIFIED_FIELDS = {"Cache-Control", "Content-Location", "Date", "ETag", "Expires", "Vary"};

    private Validation() {
    }

    static HttpFields originRequest(CacheRequest request, OriginAnswer stored) {
        HttpFields fields = request.headers().endToEnd().without(CLIENT_CONDITIONS);
        if (stored == null) {
            return fields;
        }
        HttpFields headers = stored.headers();
        String etag = headers.first("ETag");
        if (etag != null) {
            fields = fields.with("If-None-Match", etag);
        }
        String lastModified = headers.first("Last-Modified");
        if (lastModified != null && HttpDates.parse(lastModified) != HttpDates.INVALID) {
            fields = fields.with("If-Modified-Since", lastModified);
        }
        return fields;
    }

    static HttpFields notModifiedFields(OriginAnswer answer) {
        HttpFields headers = answer.headers();
        boolean lastModified = !headers.has("ETag");
        HttpFields.Builder b = HttpFields.builder();
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.name(i);
            if (isAny(name, NOT_MODIFIED_FIELDS) || lastModified && HttpFields.sameName(name, "Last-Modified")) {
                b.add(name, headers.value(i));
            }
        }
        return b.build();
    }

    private static boolean isAny(String name, String[] names) {
        for (String n : names) {
            if (HttpFields.sameName(name, n)) {
                return true;
            }
        }
        return false;
    }
}
