package io.ketama.router.forwarding;

/** The member-to-member transports a member can forward keys by ({@code ketama.router.forward.transport}). */
public enum TransportKind {
    /** One persistent TCP connection per peer and event loop, length-prefixed frames with request ids. */
    BINARY,
    /** HTTP/1.1 keep-alive requests from a pooled client to the owner's own HTTP port. */
    HTTP,
    /** Hazelcast executor-service invocations carrying IdentifiedDataSerializable payloads. */
    HAZELCAST
}
