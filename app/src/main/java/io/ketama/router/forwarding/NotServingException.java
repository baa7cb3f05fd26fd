package io.ketama.router.forwarding;

/** A member received a forwarded key but serves none now: starting, stopping, or not a router. */
public final class NotServingException extends IllegalStateException {

    public NotServingException(String message) {
        super(message);
    }
}
