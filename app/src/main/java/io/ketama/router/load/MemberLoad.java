package io.ketama.router.load;

import java.util.UUID;

/**
 * One member's load as the {@link LoadBoard} last read it.
 *
 * @param uuid      the member's UUID
 * @param address   its {@code host:port} in the cluster (its UUID where it has left meanwhile)
 * @param rate      answers it served a second in the last window it published
 * @param weight    its weight on the rings; 0 while it is not on them (starting, draining)
 * @param boundRate what it may serve a second at the cluster's load now: {@code max(c · L · w / W, minRate)};
 *                  {@link Double#POSITIVE_INFINITY} while bounded loads are off here or it has no weight
 * @param local     whether it is this member
 */
public record MemberLoad(UUID uuid, String address, double rate, int weight, double boundRate, boolean local) {

    /** Whether it served at least its bound in its last window: spilled requests should go past it. */
    public boolean full() {
        return rate >= boundRate;
    }
}
