package io.ketama.router.purge;

import java.util.List;
import java.util.Map;

/**
 * How a purge went across the cluster.
 *
 * @param keys         keys purged
 * @param tags         tags purged
 * @param dropped      stored answers and near copies the members that confirmed dropped
 * @param confirmed    the members ({@code host:port}) that dropped them (or held none), this one included
 * @param notConfirmed the members that did not confirm within the purge's wait, with why: in this
 *                     member's view but silent or failing, or cut off from it by failure (not drained)
 * @param millis       how long the purge took
 */
public record PurgeOutcome(int keys, int tags, long dropped, List<String> confirmed, Map<String, String> notConfirmed,
                           long millis) {

    public PurgeOutcome {
        confirmed = List.copyOf(confirmed);
        notConfirmed = Map.copyOf(notConfirmed);
    }

    /** Whether every member confirmed: no member can serve a purged answer any more. */
    public boolean complete() {
        return notConfirmed.isEmpty();
    }
}
