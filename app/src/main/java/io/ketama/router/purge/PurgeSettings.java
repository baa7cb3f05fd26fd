package io.ketama.router.purge;

import java.time.Duration;

/**
 * The validated {@code ketama.router.purge.*} settings.
 *
 * @param timeout    how long a purge waits for the members to confirm, 100 ms to 1 min
 * @param missingFor how long a member that left by failure is named as not confirmed, 1 s to 7 days
 * @param exposeTags whether the tag fields reach clients
 */
public record PurgeSettings(Duration timeout, Duration missingFor, boolean exposeTags) {

    /** @throws IllegalArgumentException naming the key below {@code ketama.router.purge}, the value and the range */
    public PurgeSettings {
        if (timeout.compareTo(Duration.ofMillis(100)) < 0 || timeout.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new IllegalArgumentException(".timeout: must be 100 ms to 1 min, e.g. 2s; was " + timeout);
        }
        if (missingFor.compareTo(Duration.ofSeconds(1)) < 0 || missingFor.compareTo(Duration.ofDays(7)) > 0) {
            throw new IllegalArgumentException(".missing-for: must be 1 s to 7 days, e.g. 10m; was " + missingFor);
        }
    }
}
