package io.ketama.router.forwarding;

/**
 * The target member publishes no usable port for the transport (its attribute is absent or not a
 * port number): it cannot be forwarded to that way until it publishes one, which it does only when
 * it starts. Retrying cannot mend it, and it says nothing of the member's health (its other
 * transports, its own keys may serve well), so its guard neither retries it nor counts it against
 * the member's breaker; the next candidate serves.
 */
public final class NoUsableEndpointException extends ForwardFailedException {

    public NoUsableEndpointException(String message) {
        super(message);
    }
}
