package io.ketama.router.forwarding.channel;

import io.ketama.router.forwarding.FailureKind;
import io.ketama.router.forwarding.ForwardFailedException;
import io.ketama.router.forwarding.ForwardRefusedException;
import io.ketama.router.forwarding.NotServingException;
import io.ketama.router.forwarding.SpilledException;
import io.ketama.router.serving.Failures;
import io.ketama.router.serving.OriginAnswerTooLargeException;
import io.ketama.router.serving.OriginUnavailableException;
import io.ketama.router.serving.OverloadedException;

/**
 * Why a member that received a forward could not serve it, as every transport carries it back:
 * a code and a message, never a serialized exception. The forwarding member turns it into the
 * exception its failover and fault tolerance act on.
 */
public enum RemoteFailure {
    /** The key was not cached there and the origin gave no answer: not the member's fault. */
    ORIGIN_UNAVAILABLE(1),
    /** The member had no room for more work. */
    OVERLOADED(2),
    /** The member serves no keys now (starting, stopping). */
    NOT_SERVING(3),
    /** Anything else that broke on the member. */
    FAILED(4),
    /** The origin's answer was larger than the member takes: not the member's fault either. */
    ORIGIN_ANSWER_TOO_LARGE(5),
    /**
     * The member would not read the request (a kind or a key it does not take): the sender's
     * mistake or a version the two do not share, not the member failing. Since version 2; sent
     * as {@link #FAILED} to a version-1 member ({@link ChannelVersion#code}).
     */
    REFUSED(6, 2),
    /**
     * The member was past its bound and did not serve: the sender sends the key to its next
     * candidate ({@link SpilledException}). Since version 3, and only ever the answer to a request
     * its sender marked spillable, which only a sender of version 3 or later does.
     */
    SPILLED(7, 3),
    /**
     * The request said {@code only-if-cached} and the member holds nothing it may answer it with
     * ({@link io.ketama.router.serving.NotCachedException}): a {@code 504}, not the member failing.
     * Since version 5, which alone carries the request's fields.
     */
    NOT_CACHED(8, 5);

    private final int code;
    private final int since;

    RemoteFailure(int code) {
        this(code, 1);
    }

    RemoteFailure(int code, int since) {
        this.code = code;
        this.since = since;
    }

    public int code() {
        return code;
    }

    /** The {@link ChannelVersion} that introduced this code: a peer of an older one reads another. */
    int since() {
        return since;
    }

    /** The failure of {@code code}; a code this version does not know is {@link #FAILED}. */
    public static RemoteFailure ofCode(int code) {
        for (RemoteFailure f : values()) {
            if (f.code == code) {
                return f;
            }
        }
        return FAILED;
    }

    /** The code {@code failure}, raised while serving a forwarded key, travels back as (its {@link FailureKind}). */
    public static RemoteFailure of(Throwable failure) {
        return switch (FailureKind.of(failure)) {
            case SPILLED -> SPILLED;
            case NOT_CACHED -> NOT_CACHED;
            case ORIGIN_ANSWER_TOO_LARGE -> ORIGIN_ANSWER_TOO_LARGE;
            case ORIGIN_UNAVAILABLE -> ORIGIN_UNAVAILABLE;
            case NO_ROOM_FOR_REPLY, OVERLOADED -> OVERLOADED;
            case NOT_SERVING -> NOT_SERVING;
            // the rest is a failure of the member as far as its sender can tell
            case BULKHEAD_FULL, NO_USABLE_ENDPOINT, REFUSED, BREAKER_OPEN, MEMBER_GONE, HAZELCAST_STOPPING, FAILED -> FAILED;
        };
    }

    /** The message sent back for {@code failure}. */
    public static String message(Throwable failure) {
        Throwable cause = Failures.cause(failure);
        return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
    }

    /** The exception the forwarding member acts on, for a failure of {@code member}. */
    public RuntimeException toException(String member, String message) {
        return switch (this) {
            case ORIGIN_UNAVAILABLE -> new OriginUnavailableException(message, null);
            case ORIGIN_ANSWER_TOO_LARGE -> new OriginAnswerTooLargeException(message);
            case OVERLOADED -> new OverloadedException("member " + member + ": " + message);
            case NOT_SERVING -> new NotServingException(message);
            case REFUSED -> new ForwardRefusedException("member " + member + " refused the forward: " + message);
            case SPILLED -> new SpilledException("member " + member + " spilled the key: " + message);
            case NOT_CACHED -> new io.ketama.router.serving.NotCachedException("member " + member + ": " + message);
            case FAILED -> new ForwardFailedException("member " + member + " failed to serve the key: " + message);
        };
    }
}
