package io.ketama.quarkus.runtime;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

import java.util.function.LongConsumer;

/**
 * The {@code If-Match} of the admin plane's changes: the generation of the migration state the
 * caller based the change on (the {@code ETag} of its last read), so that a change someone made
 * meanwhile refuses the caller's (412) instead of being silently built upon. One syntax for every
 * call that takes it, read here only.
 */
final class IfMatch {

    private IfMatch() {
    }

    /**
     * Hands the generation the request's {@code If-Match} names ({@link ClusterMigration#ANY_GENERATION}
     * when none) to {@code then}; a malformed one is answered 400 {@code invalid-if-match} instead.
     */
    static void read(RoutingContext rc, LongConsumer then) {
        long generation;
        try {
            generation = parse(rc.request().getHeader(HttpHeaders.IF_MATCH));
        } catch (IllegalArgumentException e) {
            AdminHttp.refused(rc, 400, "invalid-if-match", "Invalid If-Match", e.getMessage());
            return;
        }
        then.accept(generation);
    }

    /**
     * The expected generation from {@code If-Match: "N"} (or {@code N}, {@code W/"N"}), or
     * {@link ClusterMigration#ANY_GENERATION} when absent or {@code *}.
     *
     * @throws IllegalArgumentException for anything else, saying what is allowed
     */
    static long parse(String header) {
        if (header == null || header.isBlank() || header.trim().equals("*")) {
            return ClusterMigration.ANY_GENERATION;
        }
        String t = header.trim();
        if (t.startsWith("W/")) {
            t = t.substring(2);
        }
        if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
            t = t.substring(1, t.length() - 1);
        }
        try {
            long g = Long.parseLong(t);
            if (g >= 1) {
                return g;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("If-Match must be a generation as the ETag gives it (e.g. \"7\") or *, was "
                + (header.length() > 40 ? header.substring(0, 40) + "…" : header));
    }
}
