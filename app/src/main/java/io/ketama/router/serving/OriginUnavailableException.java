package io.ketama.router.serving;

/** The origin gave no answer (connection refused, timeout, malformed response). */
public final class OriginUnavailableException extends RuntimeException {

    public OriginUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
