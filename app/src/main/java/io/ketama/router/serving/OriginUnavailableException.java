package io.ketama.router.serving;

/**
 * The origin gave no answer (connection refused, timeout, malformed response), or none this member
 * takes ({@link OriginAnswerTooLargeException}, {@link OriginAnswerUnreadableException}). Not the fault of the member that asked it.
 */
public sealed class OriginUnavailableException extends RuntimeException permits OriginAnswerTooLargeException, OriginAnswerUnreadableException {

    public OriginUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
