package io.ketama.router.caching;

import java.util.List;

/**
 * Reads {@code Cache-Control} (RFC 9111 §5.2): {@code #( token [ "=" ( token / quoted-string ) ] )}
 * over every line of the field, as if the lines were one list (RFC 9110 §5.3).
 *
 * <ul>
 *   <li>Directive names compare without case; unknown directives are ignored (§5.2.3).</li>
 *   <li>The first occurrence of a directive wins; later ones are ignored (§4.2.1 allows this or
 *       treating the response as stale).</li>
 *   <li>Arguments may be tokens or quoted strings, for every directive (§5.2: recipients ought to
 *       accept both): {@code max-age="3600"} is 3600. A quoted string is skipped as a whole, so a
 *       {@code max-age} inside one ({@code ext="max-age=1"}) is not a directive.</li>
 *   <li>An element that is not {@code token [ "=" value ]} (whitespace around the {@code =}, text after
 *       the value) is ignored as a whole, as a malformed list element.</li>
 * </ul>
 */
final class CacheControlParser {

    /**
     * The directives of the single-line values met so far, one instance each: an origin sends a
     * handful of {@code Cache-Control} values for all its answers, so a cache of 100,000 answers holds
     * a handful of these (72 bytes each, JOL) instead of one per answer. Bounded: past
     * {@value #MAX_SHARED} values, or for values longer than {@value #MAX_SHARED_LENGTH} chars, each
     * answer parses its own.
     */
    private static final java.util.concurrent.ConcurrentMap<String, CacheControl> SHARED = new java.util.concurrent.ConcurrentHashMap<>();
    private static final int MAX_SHARED = 1024;
    private static final int MAX_SHARED_LENGTH = 128;

    private CacheControlParser() {
    }

    /** The directives of every line named {@code name} in {@code headers}; {@link CacheControl#NONE} when none. */
    static CacheControl parse(HttpFields headers, String name) {
        return parse(headers, name, false);
    }

    /**
     * As {@link #parse(HttpFields, String)}, for an answer the cache may keep: a single-line value is
     * shared with every answer that has the same ({@link #SHARED}). Never for requests: a client could
     * fill the shared values with its own.
     */
    static CacheControl parseShared(HttpFields headers, String name) {
        return parse(headers, name, true);
    }

    private static CacheControl parse(HttpFields headers, String name, boolean share) {
        CacheControl.Builder b = null;
        Seen seen = null;
        String only = null;
        int lines = 0;
        for (int i = 0; i < headers.size(); i++) {
            if (HttpFields.sameName(headers.name(i), name)) {
                lines++;
                only = headers.value(i);
            }
        }
        if (lines == 0) {
            return CacheControl.NONE;
        }
        if (share && lines == 1 && only.length() <= MAX_SHARED_LENGTH) {
            CacheControl known = SHARED.get(only);
            if (known != null) {
                return known;
            }
            CacheControl parsed = parse(only);
            if (SHARED.size() < MAX_SHARED) {
                SHARED.putIfAbsent(only, parsed);
            }
            return parsed;
        }
        for (int i = 0; i < headers.size(); i++) {
            if (HttpFields.sameName(headers.name(i), name)) {
                if (b == null) {
                    b = new CacheControl.Builder();
                    seen = new Seen();
                }
                parseLine(headers.value(i), b, seen);
            }
        }
        return b.build();
    }

    /** The directives of one value. */
    static CacheControl parse(String value) {
        CacheControl.Builder b = new CacheControl.Builder();
        parseLine(value, b, new Seen());
        return b.build();
    }

    /** Which directives were already met: the first occurrence wins. */
    private static final class Seen {
        int bits;

        /** Marks {@code bit}; whether it was new. */
        boolean first(int bit) {
            boolean fresh = (bits & bit) == 0;
            bits |= bit;
            return fresh;
        }
    }

    private static void parseLine(String s, CacheControl.Builder b, Seen seen) {
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (c == ',' || FieldLists.isWhitespace(c)) {
                i++;
                continue;
            }
            int nameStart = i;
            while (i < n && FieldLists.isTchar(s.charAt(i))) {
                i++;
            }
            int nameEnd = i;
            int valueStart = -1;
            int valueEnd = -1;
            String quoted = null;
            boolean ok = nameEnd > nameStart;
            if (ok && i < n && s.charAt(i) == '=') {
                i++;
                if (i < n && s.charAt(i) == '"') {
                    StringBuilder v = new StringBuilder();
                    i++;
                    boolean closed = false;
                    while (i < n) {
                        char q = s.charAt(i++);
                        if (q == '\\' && i < n) {
                            v.append(s.charAt(i++));
                        } else if (q == '"') {
                            closed = true;
                            break;
                        } else {
                            v.append(q);
                        }
                    }
                    ok = closed;
                    quoted = v.toString();
                } else {
                    valueStart = i;
                    while (i < n && FieldLists.isTchar(s.charAt(i))) {
                        i++;
                    }
                    valueEnd = i;
                }
            }
            while (i < n && FieldLists.isWhitespace(s.charAt(i))) {
                i++;
            }
            if (i < n && s.charAt(i) != ',') {
                ok = false; // junk after the element: skip to the next comma outside quotes
                boolean inQuotes = false;
                while (i < n && (inQuotes || s.charAt(i) != ',')) {
                    char q = s.charAt(i++);
                    if (inQuotes && q == '\\') {
                        i++;
                    } else if (q == '"') {
                        inQuotes = !inQuotes;
                    }
                }
            }
            if (ok) {
                String value = quoted != null ? quoted : valueStart >= 0 ? s.substring(valueStart, valueEnd) : null;
                apply(s, nameStart, nameEnd - nameStart, value, b, seen);
            }
        }
    }

    private static boolean is(String s, int at, int length, String name) {
        return length == name.length() && s.regionMatches(true, at, name, 0, length);
    }

    private static void apply(String s, int at, int length, String value, CacheControl.Builder b, Seen seen) {
        if (is(s, at, length, "max-age")) {
            if (seen.first(1)) {
                b.maxAge = orZero(DeltaSeconds.parse(value));
            }
        } else if (is(s, at, length, "s-maxage")) {
            if (seen.first(2)) {
                b.sMaxage = orZero(DeltaSeconds.parse(value));
            }
        } else if (is(s, at, length, "no-store")) {
            b.noStore = true;
        } else if (is(s, at, length, "no-cache")) {
            if (seen.first(4)) {
                List<String> fields = value == null ? List.of() : List.copyOf(FieldLists.elements(value));
                b.noCache = fields.isEmpty(); // "no-cache=" naming nothing is taken as unqualified: the safe reading
                b.noCacheFields = fields;
            }
        } else if (is(s, at, length, "private")) {
            if (seen.first(8)) {
                List<String> fields = value == null ? List.of() : List.copyOf(FieldLists.elements(value));
                b.isPrivate = fields.isEmpty();
                b.privateFields = fields;
            }
        } else if (is(s, at, length, "public")) {
            b.isPublic = true;
        } else if (is(s, at, length, "must-revalidate")) {
            b.mustRevalidate = true;
        } else if (is(s, at, length, "proxy-revalidate")) {
            b.proxyRevalidate = true;
        } else if (is(s, at, length, "must-understand")) {
            b.mustUnderstand = true;
        } else if (is(s, at, length, "stale-while-revalidate")) {
            if (seen.first(16)) {
                b.staleWhileRevalidate = orAbsent(DeltaSeconds.parse(value));
            }
        } else if (is(s, at, length, "stale-if-error")) {
            if (seen.first(32)) {
                b.staleIfError = orAbsent(DeltaSeconds.parse(value));
            }
        } else if (is(s, at, length, "max-stale")) {
            if (seen.first(64)) {
                b.maxStale = value == null ? CacheControl.ANY_STALENESS : orAbsent(DeltaSeconds.parse(value));
            }
        } else if (is(s, at, length, "min-fresh")) {
            if (seen.first(128)) {
                b.minFresh = orAbsent(DeltaSeconds.parse(value));
            }
        } else if (is(s, at, length, "only-if-cached")) {
            b.onlyIfCached = true;
        }
    }

    /** An invalid lifetime is 0: the response is stale (RFC 9111 §4.2.1). */
    private static long orZero(long seconds) {
        return seconds == DeltaSeconds.INVALID ? 0 : seconds;
    }

    /** An invalid allowance allows nothing: as if absent. */
    private static long orAbsent(long seconds) {
        return seconds == DeltaSeconds.INVALID ? DeltaSeconds.ABSENT : seconds;
    }
}
