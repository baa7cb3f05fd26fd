package io.ketama.load;

import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.responseTimeInMillis;
import static io.gatling.javaapi.http.HttpDsl.header;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import java.util.Locale;

/**
 * The Gatling chain of one client request: {@code GET /cache/{key}} on a member chosen by the
 * {@link MemberPool}, retried on the next member in service up to {@code attempts} times, and
 * what came back reported to a {@link RequestLog}. Expects the feeder attributes {@code key} and
 * {@code rank} (see {@link ZipfKeys}).
 */
final class CacheRequests {

    static final String CACHE_HEADER = "X-Ketama-Cache";
    static final String RING_HEADER = "X-Ketama-Ring";
    static final String FAILOVER_HEADER = "X-Ketama-Failover";

    private CacheRequests() {
    }

    static ChainBuilder chain(MemberPool pool, int attempts, RequestLog log) {
        return chain(pool, attempts, log, "GET /cache");
    }

    /** @param name the request's name in Gatling's report ({@code " (retry)"} is appended to retries) */
    static ChainBuilder chain(MemberPool pool, int attempts, RequestLog log, String name) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be >= 1, was " + attempts);
        }
        ChainBuilder chain = exec(s -> s.set("ticket", pool.nextTicket()).set("done", false))
                .exec(attempt(pool, 0, attempts, log, name));
        for (int a = 1; a < attempts; a++) {
            chain = chain.doIf(s -> !s.getBoolean("done")).then(attempt(pool, a, attempts, log, name));
        }
        return chain;
    }

    private static ChainBuilder attempt(MemberPool pool, int attempt, int attempts, RequestLog log, String name) {
        boolean last = attempt == attempts - 1;
        return exec(s -> s.removeAll("status", "cache", "ring", "failover", "rt")
                        .set("port", pool.portFor(s.getLong("ticket"), attempt)))
                .exec(http(attempt == 0 ? name : name + " (retry)")
                        .get(s -> LoadSettings.baseUrl(s.getInt("port")) + "/cache/" + s.getString("key"))
                        .check(
                                responseTimeInMillis().saveAs("rt"),
                                status().saveAs("status"),
                                status().is(200),
                                header(CACHE_HEADER).saveAs("cache"),
                                header(RING_HEADER).optional().saveAs("ring"),
                                header(FAILOVER_HEADER).optional().saveAs("failover")))
                .exec(s -> report(s, last, log));
    }

    private static Session report(Session s, boolean last, RequestLog log) {
        long now = System.currentTimeMillis();
        int rank = s.getInt("rank");
        long latency = s.contains("rt") ? s.getInt("rt") : -1;
        Outcome outcome = outcomeOf(s);
        if (outcome != Outcome.ERROR) {
            boolean v2 = "v2".equalsIgnoreCase(s.getString("ring"));
            log.finished(now, rank, outcome, latency, v2, failovers(s));
            return s.markAsSucceeded().set("done", true);
        }
        log.attemptFailed(now, s.getInt("port"), failureReason(s));
        if (last) {
            log.finished(now, rank, Outcome.ERROR, latency, false, 0);
        }
        // The Gatling report keeps the KO of this attempt; the user goes on to its next attempt.
        return s.markAsSucceeded().set("done", last);
    }

    private static Outcome outcomeOf(Session s) {
        if (!s.contains("status") || s.getInt("status") != 200 || !s.contains("cache")) {
            return Outcome.ERROR;
        }
        return switch (s.getString("cache").trim().toUpperCase(Locale.ROOT)) {
            case "HIT" -> Outcome.HIT;
            case "MISS" -> Outcome.MISS;
            case "BYPASS" -> Outcome.BYPASS;
            default -> Outcome.ERROR;
        };
    }

    private static int failovers(Session s) {
        if (!s.contains("failover")) {
            return 0;
        }
        try {
            return Math.max(1, Integer.parseInt(s.getString("failover").trim()));
        } catch (NumberFormatException e) {
            return 1;   // the header is there: the cluster did fail over, however it wrote the count
        }
    }

    private static String failureReason(Session s) {
        if (!s.contains("status")) {
            return "no response";
        }
        int status = s.getInt("status");
        if (status != 200) {
            return "HTTP " + status;
        }
        if (!s.contains("cache")) {
            return "200 without " + CACHE_HEADER;
        }
        return "unexpected " + CACHE_HEADER + ": " + s.getString("cache");
    }
}
