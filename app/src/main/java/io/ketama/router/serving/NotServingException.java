package io.ketama.router.serving;

/** A member received a forwarded key but runs no {@link KeyServer}: starting, stopping, or not a router. */
public final class NotServingException extends IllegalStateException {

    public NotServingException(String message) {
        super(message);
    }
}
