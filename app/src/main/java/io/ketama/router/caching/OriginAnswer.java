package io.ketama.router.caching;

import java.util.Arrays;
import java.util.Objects;

/**
 * An HTTP answer as the cache holds and the members pass it on: the origin's status, its
 * end-to-end header fields as it sent them, its body, and how old it was when it arrived here.
 *
 * <p><b>Age.</b> {@link #responseTime} is when the answer arrived on this member (epoch
 * milliseconds, this member's clock) and {@link #initialAgeMillis} how old it was then: for an
 * answer from the origin, the corrected initial age of RFC 9111 §4.2.3 (from its {@code Age} and
 * {@code Date} and the fetch's own delay); for one another member sent, the age that member gave it
 * when it sent it (members treat one another as an upstream cache, so no two clocks are compared).
 * Its current age is then {@link #ageMillis(long) initial age + time resident here}, as §4.2.3 says.
 *
 * <p>The fields are what the origin sent less the hop-by-hop ones; {@code Content-Length} is
 * whatever the origin said, and whoever writes the answer states the length of the body it sends.
 * Immutable: the body array is owned, never written after construction.
 */
public final class OriginAnswer {

    private final int status;
    private final HttpFields headers;
    private final byte[] body;
    private final long responseTime;
    private final long initialAgeMillis;
    /** What {@code CachePolicy} read of the headers, made once on first use (a benign race: always the same value). */
    Object directives;

    /**
     * @param status           the HTTP status, 100 to 999
     * @param headers          end-to-end header fields as received
     * @param body             the body bytes; owned from now on
     * @param responseTime     when it arrived on this member, epoch ms
     * @param initialAgeMillis how old it was then, at least 0
     * @throws IllegalArgumentException when the status or age is out of range
     */
    public OriginAnswer(int status, HttpFields headers, byte[] body, long responseTime, long initialAgeMillis) {
        if (status < 100 || status > 999) {
            throw new IllegalArgumentException("an HTTP status is 100 to 999, was " + status);
        }
        if (initialAgeMillis < 0) {
            throw new IllegalArgumentException("an age is at least 0, was " + initialAgeMillis);
        }
        this.status = status;
        this.headers = Objects.requireNonNull(headers, "headers");
        this.body = Objects.requireNonNull(body, "body");
        this.responseTime = responseTime;
        this.initialAgeMillis = initialAgeMillis;
    }

    /** An answer that arrived now, aged 0. */
    public OriginAnswer(int status, HttpFields headers, byte[] body) {
        this(status, headers, body, System.currentTimeMillis(), 0);
    }

    /** An answer of {@code contentType} and no other field, arrived now. */
    public OriginAnswer(int status, String contentType, byte[] body) {
        this(status, HttpFields.of("Content-Type", Objects.requireNonNull(contentType, "contentType")), body);
    }

    /** As {@link #OriginAnswer(int, String, byte[])}, with a {@code Location} where {@code location} is not null. */
    public OriginAnswer(int status, String contentType, byte[] body, String location) {
        this(status, location == null ? HttpFields.of("Content-Type", contentType)
                : HttpFields.of("Content-Type", contentType, "Location", location), body);
    }

    public int status() {
        return status;
    }

    public HttpFields headers() {
        return headers;
    }

    /** The body; callers must not modify it. */
    public byte[] body() {
        return body;
    }

    /** When it arrived on this member, epoch ms. */
    public long responseTime() {
        return responseTime;
    }

    /** How old it was when it arrived on this member, ms. */
    public long initialAgeMillis() {
        return initialAgeMillis;
    }

    /** Its current age at {@code now} (epoch ms): initial age plus the time resident here (RFC 9111 §4.2.3). */
    public long ageMillis(long now) {
        return initialAgeMillis + Math.max(0, now - responseTime);
    }

    /** Its {@code Content-Type}, or {@code application/octet-stream} where it names none. */
    public String contentType() {
        String type = headers.first("Content-Type");
        return type == null ? "application/octet-stream" : type;
    }

    /** Its {@code Location} on a redirect (a 3xx status); null otherwise. */
    public String location() {
        return isRedirect(status) ? headers.first("Location") : null;
    }

    /** Whether {@code status} is a redirect, whose {@code Location} passes through. */
    public static boolean isRedirect(int status) {
        return status >= 300 && status <= 399;
    }

    /** The same answer with other header fields (a {@code 304} freshened it, say), aged as given. */
    public OriginAnswer with(HttpFields headers, long responseTime, long initialAgeMillis) {
        return new OriginAnswer(status, headers, body, responseTime, initialAgeMillis);
    }

    /** Equal when status, fields and body are: when and how old it arrived do not count. */
    @Override
    public boolean equals(Object o) {
        return o instanceof OriginAnswer a && a.status == status && a.headers.equals(headers) && Arrays.equals(a.body, body);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * status + headers.hashCode()) + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "OriginAnswer[" + status + ", " + headers + ", " + body.length + " bytes, age " + initialAgeMillis + " ms at "
                + responseTime + "]";
    }
}
