package io.ketama.load.faults;

/**
 * One client request of the load and how it ended.
 *
 * @param sentAt milliseconds since the checker started
 * @param entry the member it was sent to
 * @param key the key asked for
 * @param status the HTTP status, 0 when no answer came (timed out, connection refused or reset)
 * @param millis how long until the answer (or until it was given up)
 * @param owner {@code X-Ketama-Owner}: the owner on the entry member's view, or null
 * @param servedBy {@code X-Ketama-Served-By}, or null
 * @param cache {@code X-Ketama-Cache} ({@code HIT}, {@code MISS}, {@code BYPASS}), or null
 * @param retryAfter whether the answer carried {@code Retry-After}
 * @param problem the {@code type} of a problem answer (its last part, e.g. {@code ring-not-ready}), or null
 * @param error what went wrong when no answer came, or null
 */
public record RequestRecord(long sentAt, int entry, String key, int status, long millis, String owner, String servedBy,
        String cache, boolean retryAfter, String problem, String error) {

    public boolean ok() {
        return status == 200;
    }

    /** Served by a member other than the one its entry member named as the owner (a failover or a bypass). */
    public boolean servedByOtherThanOwner() {
        return ok() && owner != null && servedBy != null && !owner.equals(servedBy);
    }

    public boolean bypass() {
        return "BYPASS".equals(cache);
    }
}
