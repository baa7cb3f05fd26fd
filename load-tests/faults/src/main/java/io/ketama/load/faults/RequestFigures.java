package io.ketama.load.faults;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the clients saw during one fault's window, by where the request entered.
 *
 * @param connected requests entering on members that are neither cut off nor impaired: all must succeed
 * @param cutOff requests entering on members cut off from the majority: served, or a fast 503 with Retry-After
 * @param impaired requests entering on the paused, dead or starved member (reported, not judged)
 * @param servedByOther answers served by a member other than the owner the entry member named
 * @param bypasses answers fetched from the origin by the entry member after every candidate failed
 * @param keysServedByTwo keys that two or more members served (as owner, not by a bypass) within the window
 * @param ringNotReady answers that were a {@code ring-not-ready} problem
 * @param failedExamples a few failed requests entering on connected members, for the report
 * @param connectedFailures the failed requests entering on connected members by what they got
 *     ({@code 503 ring-not-ready on m2}, {@code no answer on m1}), most first
 * @param direct whether the requests went through the direct client (no entry member, recorded as 0:
 *     every one counts as connected)
 */
public record RequestFigures(Counts connected, Counts cutOff, Counts impaired, long servedByOther, long bypasses,
        int keysServedByTwo, long ringNotReady, List<String> failedExamples, Map<String, Long> connectedFailures, boolean direct) {

    public RequestFigures {
        failedExamples = List.copyOf(failedExamples);
        connectedFailures = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(connectedFailures));
    }

    /** The commonest kinds of failed connected requests, {@code 4797 503 ring-not-ready on m2, ...}. */
    public String connectedFailuresText(int kinds) {
        return connectedFailures.entrySet().stream().limit(kinds).map(e -> e.getValue() + " " + e.getKey())
                .collect(java.util.stream.Collectors.joining(", "));
    }

    /**
     * Requests of one kind of entry member.
     *
     * @param total sent
     * @param ok answered 200
     * @param fast503 answered 503 with Retry-After within the fast-refusal bound
     * @param hung no answer at all (the client gave up, or the connection failed)
     * @param other any other answer (another status, a slow 503, a 503 without Retry-After)
     * @param maxMillis the slowest answer or give-up
     */
    public record Counts(long total, long ok, long fast503, long hung, long other, long maxMillis) {
        public long failed() {
            return total - ok;
        }
    }

    /**
     * The figures of the requests sent in {@code [from, to)}; those sent before {@code classesEnd}
     * are judged by where they entered (connected, cut off, impaired), later ones all as connected.
     */
    static RequestFigures of(Fault fault, List<RequestRecord> requests, long from, long classesEnd, long to, long fastRefusalMillis) {
        Tally connected = new Tally();
        Tally cutOff = new Tally();
        Tally impaired = new Tally();
        long servedByOther = 0;
        long bypasses = 0;
        long ringNotReady = 0;
        Map<String, Set<String>> servers = new HashMap<>();
        List<String> examples = new ArrayList<>();
        Map<String, Long> failures = new HashMap<>();
        boolean direct = false;
        for (RequestRecord r : requests) {
            if (r.sentAt() < from || r.sentAt() >= to) {
                continue;
            }
            direct = r.entry() == 0;
            boolean classed = r.sentAt() < classesEnd;
            Tally t = classed && fault.impaired().contains(r.entry()) ? impaired
                    : classed && fault.cutOff().contains(r.entry()) ? cutOff : connected;
            t.add(r, fastRefusalMillis);
            if (t == connected && !r.ok()) {
                String kind = (r.status() == 0 ? "no answer" : r.status() + (r.problem() != null ? " " + r.problem() : "")) + where(r);
                failures.merge(kind, 1L, Long::sum);
            }
            if (t == connected && !r.ok() && examples.size() < 5) {
                examples.add((r.entry() == 0 ? "direct" : "m" + r.entry()) + " " + r.key() + " at " + r.sentAt() + " ms: "
                        + (r.status() == 0 ? "no answer (" + r.error() + ")" : r.status() + (r.problem() != null ? " " + r.problem() : ""))
                        + " after " + r.millis() + " ms");
            }
            if (r.servedByOtherThanOwner()) {
                servedByOther++;
            }
            if (r.bypass()) {
                bypasses++;
            }
            if ("ring-not-ready".equals(r.problem())) {
                ringNotReady++;
            }
            if (r.ok() && !r.bypass() && r.servedBy() != null) {
                servers.computeIfAbsent(r.key(), k -> new HashSet<>()).add(r.servedBy());
            }
        }
        int keysServedByTwo = (int) servers.values().stream().filter(s -> s.size() > 1).count();
        Map<String, Long> byCount = new java.util.LinkedHashMap<>();
        failures.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .forEach(e -> byCount.put(e.getKey(), e.getValue()));
        return new RequestFigures(connected.counts(), cutOff.counts(), impaired.counts(), servedByOther, bypasses, keysServedByTwo,
                ringNotReady, examples, byCount, direct);
    }

    /** Where a request entered, {@code " on m2"}, or {@code " direct"} for the direct client's. */
    private static String where(RequestRecord r) {
        return r.entry() == 0 ? " direct" : " on m" + r.entry();
    }

    private static final class Tally {
        long total;
        long ok;
        long fast503;
        long hung;
        long other;
        long maxMillis;

        void add(RequestRecord r, long fastRefusalMillis) {
            total++;
            maxMillis = Math.max(maxMillis, r.millis());
            if (r.ok()) {
                ok++;
            } else if (r.status() == 0) {
                hung++;
            } else if (r.status() == 503 && r.retryAfter() && r.millis() <= fastRefusalMillis) {
                fast503++;
            } else {
                other++;
            }
        }

        Counts counts() {
            return new Counts(total, ok, fast503, hung, other, maxMillis);
        }
    }
}
