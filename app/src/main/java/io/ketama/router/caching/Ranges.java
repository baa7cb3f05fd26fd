package io.ketama.router.caching;

import java.util.List;

/** Range requests served from a stored complete answer (RFC 9110 §14.2, §13.1.5). */
final class Ranges {

    private Ranges() {
    }

    /** See {@link CachePolicy#range}. */
    static ByteRange range(CacheRequest request, OriginAnswer answer) {
        HttpFields rq = request.headers();
        if (!request.method().equals("GET") || answer.status() != 200 || !rq.has("Range")) {
            return null; // §14.2: Range is for GET; a cache serves ranges of complete (200) answers only
        }
        if (rq.has("If-Range") && !ifRangeHolds(rq.first("If-Range").strip(), answer.headers())) {
            return null;
        }
        List<String> lines = rq.all("Range");
        if (lines.size() != 1) {
            return null;
        }
        String value = lines.get(0).strip();
        int eq = value.indexOf('=');
        if (eq < 0 || !value.substring(0, eq).strip().equalsIgnoreCase("bytes")) {
            return null; // range units are case-insensitive (§14.1); other units are ignored
        }
        List<String> specs = FieldLists.elements(value.substring(eq + 1));
        if (specs.size() != 1) {
            return null; // none, or several: the whole representation is sent (a server MAY ignore Range)
        }
        return spec(specs.get(0), answer.body().length);
    }

    /** One {@code int-range} ({@code first-[last]}) or {@code suffix-range} ({@code -length}); null when invalid. */
    private static ByteRange spec(String spec, long length) {
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return null;
        }
        // digits, capped at 2^31: past any body a byte[] can hold, so a larger offset stays unsatisfiable
        long first = dash == 0 ? -1 : DeltaSeconds.parse(spec, 0, dash);
        long last = dash == spec.length() - 1 ? -1 : DeltaSeconds.parse(spec, dash + 1, spec.length());
        if (first == DeltaSeconds.INVALID || last == DeltaSeconds.INVALID || first < 0 && last < 0) {
            return null;
        }
        if (first < 0) { // suffix: the last `last` bytes (§14.1.2)
            if (last == 0 || length == 0) {
                return ByteRange.unsatisfiable(length);
            }
            return ByteRange.of(Math.max(0, length - last), length - 1, length);
        }
        if (last >= 0 && last < first) {
            return null; // invalid: a last before the first (§14.1.1) makes the Range field ignored
        }
        if (first >= length) {
            return ByteRange.unsatisfiable(length);
        }
        return ByteRange.of(first, last < 0 ? length - 1 : Math.min(last, length - 1), length);
    }

    /**
     * §13.1.5: an entity-tag matches strongly the answer's, or an HTTP-date equals the answer's
     * {@code Last-Modified} exactly (a date is a weak validator otherwise).
     */
    private static boolean ifRangeHolds(String condition, HttpFields headers) {
        if (condition.startsWith("\"") || EntityTags.isWeak(condition)) {
            String etag = headers.first("ETag");
            return etag != null && EntityTags.strongMatch(condition, etag.strip());
        }
        long date = HttpDates.parse(condition);
        long lastModified = HttpDates.parse(headers.first("Last-Modified"));
        return date != HttpDates.INVALID && date == lastModified;
    }
}
