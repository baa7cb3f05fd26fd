package io.ketama.router.forwarding;

/**
 * A forward failed on its way or on the member it went to: the next candidate is tried. Sealed:
 * the kinds retrying cannot mend are {@link NoUsableEndpointException} and
 * {@link ForwardRefusedException}.
 */
public sealed class ForwardFailedException extends RuntimeException permits NoUsableEndpointException, ForwardRefusedException {

    public ForwardFailedException(String message) {
        super(message);
    }

    public ForwardFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
