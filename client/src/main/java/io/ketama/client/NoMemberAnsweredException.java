package io.ketama.client;

import java.util.List;

/**
 * No candidate of a key answered: each failed (connection, timeout), was held off by its breaker
 * and then failed its probe, or published no HTTP port. The message lists each attempt.
 */
public final class NoMemberAnsweredException extends RuntimeException {

    private final List<String> attempts;

    NoMemberAnsweredException(String key, List<String> attempts, Throwable last) {
        super("no member answered key " + key + " (" + attempts.size() + " candidate(s)): " + String.join("; ", attempts), last);
        this.attempts = List.copyOf(attempts);
    }

    /** One line per candidate tried: the member and what went wrong. */
    public List<String> attempts() {
        return attempts;
    }
}
