package io.ketama.router.serving;

import java.util.Arrays;
import java.util.Objects;

/**
 * What the origin answered for a key: status, content type, body, and where a redirect points.
 *
 * @param status      the origin's HTTP status
 * @param contentType the origin's content type, never null ({@code application/octet-stream} when it gave none);
 *                    answers with equal content types share one instance ({@link ContentTypes})
 * @param body        the body bytes; the record owns the array, callers must not modify it
 * @param location    the origin's {@code Location} header as it sent it (the edge that answers the
 *                    client may rewrite one into the origin), kept only on a redirect (a 3xx status); null otherwise
 */
public record OriginAnswer(int status, String contentType, byte[] body, String location) {

    public OriginAnswer {
        contentType = ContentTypes.ANSWERS.shared(Objects.requireNonNull(contentType, "contentType"));
        Objects.requireNonNull(body, "body");
        if (location != null && !isRedirect(status)) {
            throw new IllegalArgumentException("a Location is kept only on a redirect (3xx), not on a " + status);
        }
    }

    /** An answer without a {@code Location}. */
    public OriginAnswer(int status, String contentType, byte[] body) {
        this(status, contentType, body, null);
    }

    /** Whether {@code status} is a redirect, whose {@code Location} passes through. */
    public static boolean isRedirect(int status) {
        return status >= 300 && status <= 399;
    }

    /**
     * Only a plain 200 is cached, as nginx's proxy cache does for content without cache headers; a
     * redirect, like any other status, passes through uncached (asked of the origin each time).
     */
    public boolean cacheable() {
        return status == 200;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OriginAnswer a && a.status == status && a.contentType.equals(contentType)
                && Arrays.equals(a.body, body) && Objects.equals(a.location, location);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * (31 * status + contentType.hashCode()) + Arrays.hashCode(body)) + Objects.hashCode(location);
    }

    @Override
    public String toString() {
        return "OriginAnswer[" + status + ", " + contentType + ", " + body.length + " bytes"
                + (location == null ? "" : ", Location " + location) + "]";
    }
}
