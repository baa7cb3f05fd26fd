/**
 * The guard of the forwards to one member ({@code MemberGuard}): retries around a circuit breaker
 * ({@code ForwardBreaker}) around a bulkhead ({@code ForwardBulkhead}), in MicroProfile Fault
 * Tolerance's order and with its exceptions. Apart from the transports: a guard knows nothing of how a
 * key travels, only whether an attempt answered and, by its {@code FailureKind}, what its failure says
 * of the member. Its caller hands it each forward as an {@code Attempt}, a value the guard tries
 * and retries without calling back into the caller. Only those two are public, for the
 * {@code Forwarder}; the breaker and the bulkhead are the guard's parts.
 */
package io.ketama.router.forwarding.guard;
