package io.ketama.load.faults;

/**
 * The bounds the figures are judged against (issue 25, item 3), all in milliseconds.
 *
 * @param detection how long after a member becomes unreachable the others may still hold it on
 *     their rings: the failure timeout plus what it takes to see it (heartbeats, a rebuild, a poll)
 * @param cutOffDetection how long a side made only of cut-off members (an isolated member, the
 *     minority of a split) may still hold the members it cannot reach: its own view, not the
 *     issue's target (which is the others' rings), and slower: such a member must suspect every
 *     other member and become the master of a cluster of its own before it drops them (measured
 *     10.0 to 20.7 s with a 10 s failure timeout, 9 isolated members at load averages 19 to 56)
 * @param merge how long after a partition heals the sides may take to be one cluster again
 * @param agreeAfterMerge how long after the merge every member must agree on owners and on the
 *     migration generation (the issue: 10 s)
 * @param quiet how long agreement must hold unbroken for the cluster to count as settled
 * @param fastRefusal the slowest a 503 may be and still count as fast
 */
public record Bounds(long detection, long cutOffDetection, long merge, long agreeAfterMerge, long quiet, long fastRefusal) {

    /**
     * The bounds this harness states for a cluster with these settings: detection within the failure
     * timeout plus 5 s (a cut-off side's own view: twice the failure timeout plus 5 s); the merge within two merge intervals plus 10 s (Hazelcast looks for the other
     * side once an interval, and a merging member restarts its node before it serves again).
     */
    public static Bounds stated(long failureTimeoutMillis, long mergeIntervalMillis, long quietMillis) {
        return new Bounds(failureTimeoutMillis + 5_000, 2 * failureTimeoutMillis + 5_000, 2 * mergeIntervalMillis + 10_000, 10_000,
                quietMillis, 1_000);
    }
}
