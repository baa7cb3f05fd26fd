package io.ketama.router.serving;

/**
 * A request said {@code Cache-Control: only-if-cached} and the member that serves its key holds no
 * stored answer it may give it (RFC 9111 §5.2.1.7): answered {@code 504}, the origin not asked.
 * Stackless: it says what happened, not where.
 */
public final class NotCachedException extends RuntimeException {

    public NotCachedException(String message) {
        super(message, null, false, false);
    }
}
