package io.ketama.quarkus;

import java.time.Duration;
import java.util.List;

/**
 * CDI event fired (synchronously) during a graceful stop, once this member is off the rings of
 * every other member, before the HTTP server stops taking requests and before any
 * {@code ShutdownEvent} observer runs. From here on no member routes a new key here; forwards that
 * were already sent may still arrive for the drain's quiet period. An application's forward
 * transport observes it (or {@code ShutdownEvent}) to finish what it holds and close.
 *
 * @param took        how long leaving the rings took
 * @param confirmed   how many other members confirmed they let this member go
 * @param unconfirmed members that still had it on their rings when the drain timed out (empty when
 *                    every member confirmed)
 */
public record RingsLeft(Duration took, int confirmed, List<String> unconfirmed) {

    public RingsLeft {
        unconfirmed = List.copyOf(unconfirmed);
    }
}
