package io.ketama.router.serving;

/**
 * A member had no room for more work (its forwards to a member, or its own origin fetches, are at
 * their limit, or the bodies those fetches hold would pass its {@link BodyBudget}): the request is
 * refused at once instead of queued, and the client is told to retry.
 */
public final class OverloadedException extends RuntimeException {

    public OverloadedException(String message) {
        super(message, null, false, false);
    }
}
