package io.ketama.router;

import io.ketama.core.EnumLabels;

/** Every kind of problem the service answers with, its status and title (RFC 7807). */
enum ProblemType {
    EMPTY_KEY(400, "Empty key"),
    KEY_TOO_LONG(414, "Key too long"),
    BAD_REQUEST_TARGET(400, "Request target not usable as a key"),
    MALFORMED_FEATURES(400, "Malformed X-Ketama-Features header"),
    UNKNOWN_FEATURE(400, "Unknown feature"),
    BAD_REQUEST(400, "Bad request"),
    NOT_FOUND(404, "Not found"),
    METHOD_NOT_ALLOWED(405, "Method not allowed"),
    REQUEST_TOO_LARGE(413, "Request body too large"),
    NOT_ACCEPTABLE(406, "Not acceptable"),
    UNSUPPORTED_MEDIA_TYPE(415, "Unsupported media type"),
    RING_NOT_READY(503, "Ring not ready"),
    NO_QUALIFYING_MEMBER(503, "No member has the required features"),
    ORIGIN_UNAVAILABLE(502, "Origin unavailable"),
    ORIGIN_ANSWER_TOO_LARGE(502, "Origin answer too large"),
    NOT_CACHED(504, "Not cached"),
    OVERLOADED(503, "Overloaded"),
    INTERNAL(500, "Internal error");

    private final int status;
    private final String title;

    ProblemType(int status, String title) {
        this.status = status;
        this.title = title;
    }

    int status() {
        return status;
    }

    String title() {
        return title;
    }

    /** A stable URI naming the problem kind, e.g. {@code urn:ketama-router:problem:empty-key}. */
    String uri() {
        return "urn:ketama-router:problem:" + EnumLabels.label(this);
    }
}
