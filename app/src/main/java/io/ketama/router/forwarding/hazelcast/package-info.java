/**
 * The {@code hazelcast} transport: a forward is a task on Hazelcast's executor service run on the
 * owner ({@code HazelcastForwardTask}), answered with a reply ({@code HazelcastForwardReply}), both
 * {@code IdentifiedDataSerializable} of the factory {@code HazelcastForwarding} registers. The sender
 * is {@code HazelcastForwardClient}; its completions run on the caller's event loop
 * ({@code CallerContext}) or, on a small machine, on two threads of their own ({@code Completions}).
 */
package io.ketama.router.forwarding.hazelcast;
