package io.ketama.router.serving;

/**
 * The origin's answer has a body larger than this member takes ({@code ketama.router.origin.max-body-bytes}):
 * it is not read further, not cached, and not asked for again through other members (the origin
 * would send them the same answer). Neither the origin's nor the member's failure as such, so like
 * {@link OriginUnavailableException} it ends the request with a 502 and leaves breakers alone.
 */
public final class OriginAnswerTooLargeException extends OriginUnavailableException {

    public OriginAnswerTooLargeException(String message) {
        super(message, null);
    }
}
