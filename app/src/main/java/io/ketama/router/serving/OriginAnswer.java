package io.ketama.router.serving;

import java.util.Arrays;
import java.util.Objects;

/**
 * What the origin answered for a key: status, content type and body.
 *
 * @param status      the origin's HTTP status
 * @param contentType the origin's content type, never null ({@code application/octet-stream} when it gave none);
 *                    answers with equal content types share one instance ({@link ContentTypes})
 * @param body        the body bytes; the record owns the array, callers must not modify it
 */
public record OriginAnswer(int status, String contentType, byte[] body) {

    public OriginAnswer {
        contentType = ContentTypes.ANSWERS.shared(Objects.requireNonNull(contentType, "contentType"));
        Objects.requireNonNull(body, "body");
    }

    /** Only a plain 200 is cached, as nginx's proxy cache does for content without cache headers. */
    public boolean cacheable() {
        return status == 200;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OriginAnswer a && a.status == status && a.contentType.equals(contentType)
                && Arrays.equals(a.body, body);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * status + contentType.hashCode()) + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "OriginAnswer[" + status + ", " + contentType + ", " + body.length + " bytes]";
    }
}
