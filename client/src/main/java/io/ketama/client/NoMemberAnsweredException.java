package io.ketama.client;

import java.util.List;

/**
 * No candidate of a key answered: each failed (connection, timeout), was held off by its breaker
 * and then failed its probe, or published no HTTP port. The message lists each attempt.
 */
public final class NoMemberAnsweredException extends RuntimeException {

    private final List<String> attempts;
    private final List<String> sentTo;

    NoMemberAnsweredException(String key, List<String> attempts, List<String> sentTo, Throwable last) {
        super("no member answered key " + key + " (" + attempts.size() + " candidate(s)): " + String.join("; ", attempts), last);
        this.attempts = List.copyOf(attempts);
        this.sentTo = List.copyOf(sentTo);
    }

    /** The members ({@code host:port} of their HTTP ports) the request was sent to, in order; a candidate skipped without a request is not here. */
    public List<String> sentTo() {
        return sentTo;
    }

    /** One line per candidate tried: the member and what went wrong. */
    public List<String> attempts() {
        return attempts;
    }
}
