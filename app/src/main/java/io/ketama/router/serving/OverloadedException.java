package io.ketama.router.serving;

/**
 * A member had no room for more work (its forwards to a member, or its own origin fetches, are at
 * their limit, or the bodies it holds would pass its {@link BodyBudget}): the request is refused at
 * once instead of queued, and the client is told to retry. Said by another member, it is that
 * member's limit (the next candidate may have room); {@link NoRoomForReplyException} is this
 * member's own.
 */
public sealed class OverloadedException extends RuntimeException permits NoRoomForReplyException {

    public OverloadedException(String message) {
        super(message, null, false, false);
    }
}
