package io.ketama.router.serving;

/**
 * The origin's answer cannot be read as one HTTP/1.1 answer this member may pass on: a {@code 101}
 * nobody asked for arrived where the final answer belongs, or the body is framed by a
 * transfer coding other than chunked (RFC 9112 §6.3 would have it read until the origin closes the
 * connection, which a kept-alive origin never does). The connection is closed, so nothing left of
 * that answer is read as the next one's. Like {@link OriginAnswerTooLargeException} it ends the
 * request with a 502 and is neither retried (the origin would answer the same) nor counted by the
 * breaker (the origin answered, promptly).
 */
public final class OriginAnswerUnreadableException extends OriginUnavailableException {

    public OriginAnswerUnreadableException(String message) {
        super(message, null);
    }
}
