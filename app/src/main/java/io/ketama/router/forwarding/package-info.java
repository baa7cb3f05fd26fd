/**
 * Forwarding a key to the member that owns it, as the service sees it: the failover chain that tries
 * the owner and then the next candidates ({@code FailoverChain}), the forwarder that sends a key to one
 * member under that member's guard and its attempt's time limit ({@code Forwarder}), the transport it
 * sends by ({@code ForwardTransport}, {@code TransportKind}), its settings and targets, the receiving
 * side that hands forwarded keys to {@code io.ketama.router.serving} ({@code ForwardReceiver}), and what
 * a forward can fail with: the exceptions and their one sort ({@code FailureKind}).
 *
 * <p>The rest lives in rooms of its own, each with a small surface: the per-member guard
 * ({@code guard}), what every transport says on the wire ({@code channel}: versions, failure codes,
 * endpoints, the shared secret, the refusal log) and the three transports ({@code binary}, {@code http},
 * {@code hazelcast}). They depend on this package; it depends on none of the transports, only on the
 * guard it runs forwards under.
 */
package io.ketama.router.forwarding;
