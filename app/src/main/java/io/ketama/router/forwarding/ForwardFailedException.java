package io.ketama.router.forwarding;

/**
 * A forward failed on its way or on the member it went to: the next candidate is tried. Sealed:
 * the one kind retrying cannot mend is {@link NoUsableEndpointException}.
 */
public sealed class ForwardFailedException extends RuntimeException permits NoUsableEndpointException {

    public ForwardFailedException(String message) {
        super(message);
    }

    public ForwardFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
