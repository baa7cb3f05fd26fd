package io.ketama.router.caching;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * One shared instance per distinct field name, and per distinct value of the fields whose values
 * repeat from answer to answer ({@code Content-Type}, {@code Cache-Control}, {@code Server},
 * {@code Vary}, ...). An origin names a handful of them for many keys, yet every answer read off the
 * wire brings its own copies: a cache of 100,000 answers would hold 100,000 equal strings of each,
 * and a hit that writes them reads each at a random place in the heap (a CPU cache miss per field:
 * the content type alone was 6 % of a local hit's CPU time in a profile). Shared, the few instances
 * stay in the CPU's caches and take no heap per answer.
 *
 * <p>At most {@code limit} strings are kept, and only values of at most {@value #MAX_VALUE_LENGTH}
 * chars; past that a string is returned as given, so an origin that sends a new value every time
 * cannot grow this without bound. Values of the fields that differ per answer ({@code Date},
 * {@code ETag}, {@code Content-Length}, ...) are never kept.
 */
public final class SharedStrings {

    /** The instances the answers stored on this member share ({@link HttpFields#shared}). */
    public static final SharedStrings FIELDS = new SharedStrings(1024);

    static final int MAX_VALUE_LENGTH = 128;

    /** Fields whose values repeat across the answers of one origin: worth sharing. */
    private static final String[] REPEATING = {"Content-Type", "Cache-Control", "Server", "Vary", "Content-Encoding",
            "Accept-Ranges", "Content-Language", "Access-Control-Allow-Origin", "X-Content-Type-Options", "X-Frame-Options",
            "Strict-Transport-Security", "Referrer-Policy", "Connection", "Pragma", "Via", "Surrogate-Control",
            "CDN-Cache-Control", "Timing-Allow-Origin", "Content-Security-Policy", "Transfer-Encoding", "Keep-Alive"};

    private final int limit;
    private final ConcurrentMap<String, String> shared = new ConcurrentHashMap<>();

    /** Shares at most {@code limit} strings (a store of its own: a test's, say). */
    public SharedStrings(int limit) {
        this.limit = limit;
    }

    /** The shared instance of a field name. */
    public String name(String name) {
        return shared(name);
    }

    /** The shared instance of {@code value} where field {@code name}'s values repeat, else {@code value} itself. */
    public String value(String name, String value) {
        if (value.length() > MAX_VALUE_LENGTH) {
            return value;
        }
        for (String repeating : REPEATING) {
            if (HttpFields.sameName(repeating, name)) {
                return shared(value);
            }
        }
        return value;
    }

    /** The shared instance equal to {@code s}, or {@code s} itself once the limit is reached. */
    String shared(String s) {
        String known = shared.get(s);
        if (known != null) {
            return known;
        }
        if (shared.size() >= limit) {
            return s;
        }
        String raced = shared.putIfAbsent(s, s);
        return raced != null ? raced : s;
    }

    /** Whether {@code s} is the very instance kept for its value (so it takes no heap of its own per answer). */
    public boolean keeps(String s) {
        return shared.get(s) == s;
    }
}
