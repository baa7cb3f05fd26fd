package io.ketama.router.forwarding;

/**
 * What one target member's forward guard has done, read live (for metrics): its bulkhead, its
 * circuit breaker and its retries. Counts only grow; {@link #inFlight}, {@link #waiting} and
 * {@link #breakerOpen} are the state now.
 */
public interface GuardCounts {

    /** The member's address, {@code host:port}. */
    String member();

    /** Forwards to the member under way now. */
    int inFlight();

    /** Forwards waiting for one of those slots now. */
    int waiting();

    /** Forwards refused at once because the member had its limit under way and its queue full. */
    long busy();

    /** Whether the member's circuit breaker refuses forwards now (open, or its trial forward under way). */
    boolean breakerOpen();

    /** Times the member's circuit breaker opened. */
    long breakerOpened();

    /** Forwards the open breaker refused. */
    long breakerRefused();

    /** Further attempts made after a failed one. */
    long retries();

    /** Forwards the member answered (after any retries). */
    long answered();

    /** Forwards that failed at the member after any retries (refusals included; spills not). */
    long failed();

    /** Forwards the member spilled: past its bound, it served nothing and the key went to its next candidate. */
    long spilled();
}
