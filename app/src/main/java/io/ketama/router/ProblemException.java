package io.ketama.router;

import java.util.LinkedHashMap;
import java.util.Map;

/** Stops a request with a problem answer; {@link ProblemMappers} writes it. */
final class ProblemException extends RuntimeException {

    private final ProblemType kind;
    private final Map<String, Object> extensions;
    private final Integer retryAfterSeconds;

    ProblemException(ProblemType kind, String detail) {
        this(kind, detail, Map.of(), null);
    }

    ProblemException(ProblemType kind, String detail, Map<String, Object> extensions, Integer retryAfterSeconds) {
        super(detail, null, false, false);
        this.kind = kind;
        this.extensions = new LinkedHashMap<>(extensions);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    ProblemType kind() {
        return kind;
    }

    Map<String, Object> extensions() {
        return extensions;
    }

    /** Seconds for a {@code Retry-After} header, or null for none. */
    Integer retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
