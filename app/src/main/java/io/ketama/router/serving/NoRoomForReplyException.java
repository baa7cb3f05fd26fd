package io.ketama.router.serving;

/**
 * This member had no room in its {@link BodyBudget} for the reply another member was sending to
 * one of its forwards: the member that took the request is the one out of memory, not the member
 * that answered. So the failover chain ends at once with it, a 503 {@code overloaded} with
 * {@code Retry-After}: the next candidate's reply would need the same room here. Like every
 * {@link OverloadedException} it says nothing of the member that answered: its circuit breaker
 * counts it as a success, and it is not retried.
 */
public final class NoRoomForReplyException extends OverloadedException {

    public NoRoomForReplyException(String message) {
        super(message);
    }
}
