/**
 * Test fixtures shared by every module whose tests run real Hazelcast members:
 * {@link io.ketama.testing.LoopbackHazelcast} (a member's loopback-only configuration, for plain
 * members and for the extension's {@code quarkus.ketama.hazelcast.*} keys alike) and
 * {@link io.ketama.testing.Await} (bounded waits). Test scope only; never published.
 */
package io.ketama.testing;
