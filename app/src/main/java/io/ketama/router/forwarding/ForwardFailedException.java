package io.ketama.router.forwarding;

/** A forward failed on its way or on the member it went to: the next candidate is tried. */
public final class ForwardFailedException extends RuntimeException {

    public ForwardFailedException(String message) {
        super(message);
    }

    public ForwardFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
