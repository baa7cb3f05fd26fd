/**
 * The guard of the forwards to one member ({@code MemberGuard}): retries around a circuit breaker
 * ({@code ForwardBreaker}) around a bulkhead ({@code ForwardBulkhead}), in MicroProfile Fault
 * Tolerance's order and with its exceptions. Apart from the transports: a guard knows nothing of how a
 * key travels, only whether an attempt answered and, by its {@code FailureKind}, what its failure says
 * of the member. Only {@code MemberGuard} is public, for the {@code Forwarder}; the breaker and the
 * bulkhead are its parts.
 */
package io.ketama.router.forwarding.guard;
