/**
 * Forwarding a key to the member that owns it: the transports ({@code ForwardTransport}: the
 * binary channel, HTTP, Hazelcast's executor), per-member guards ({@code Forwarder}), and the
 * failover chain that tries the next candidate when an owner fails ({@code FailoverChain}); the
 * receiving side ({@code ForwardReceiver}) hands forwarded keys to {@code io.ketama.router.serving}.
 */
package io.ketama.router.forwarding;
