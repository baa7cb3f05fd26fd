package io.ketama.router.forwarding;

import com.hazelcast.core.HazelcastInstanceNotActiveException;
import io.ketama.router.serving.Failures;
import io.ketama.router.serving.NoRoomForReplyException;
import io.ketama.router.serving.OriginAnswerTooLargeException;
import io.ketama.router.serving.OriginUnavailableException;
import io.ketama.router.serving.OverloadedException;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;

/**
 * The one sort of what a forward, or a key served for another member, failed with. Every place
 * that acts on a failure asks its kind instead of testing exception classes itself: the member's
 * guard (is it retried, does it count against the member's breaker), the failover chain (does the
 * key go on, spilled or failed over, or does the request end; was the candidate busy), the receiving
 * side (which {@link io.ketama.router.forwarding.channel.RemoteFailure} code it travels back as), and
 * the answer to the client ({@code CacheAnswers.problemOf}: which problem a failed chain is,
 * {@link #ORIGIN_ANSWER_TOO_LARGE}, {@link #ORIGIN_UNAVAILABLE}, {@link #OVERLOADED} or
 * {@link #NO_ROOM_FOR_REPLY}; anything else is unexpected there). A new exception gets its answers
 * here, once.
 *
 * <p>{@link #of} reads the most specific class first: {@link OriginAnswerTooLargeException} is an
 * {@link OriginUnavailableException}, {@link NoRoomForReplyException} an {@link OverloadedException},
 * and {@link ForwardRefusedException} and {@link NoUsableEndpointException} are
 * {@link ForwardFailedException}s, which like anything this enum does not name are {@link #FAILED}.
 */
public enum FailureKind {

    /** The member was past its bound and served nothing ({@link SpilledException}): an answer, not a failure. */
    SPILLED(Trait.SAYS_NOTHING_OF_THE_MEMBER | Trait.SPILLS),
    /** The origin's answer was larger than a member takes: asking it through another member gets the same. */
    ORIGIN_ANSWER_TOO_LARGE(Trait.SAYS_NOTHING_OF_THE_MEMBER | Trait.ENDS_THE_CHAIN),
    /**
     * An {@code only-if-cached} request the member serving the key holds nothing for
     * ({@link io.ketama.router.serving.NotCachedException}): asking another member would not be
     * asking the key's holder; a {@code 504}.
     */
    NOT_CACHED(Trait.SAYS_NOTHING_OF_THE_MEMBER | Trait.ENDS_THE_CHAIN),
    /** The origin gave no answer ({@link OriginUnavailableException}): it is shared, another member would ask it again. */
    ORIGIN_UNAVAILABLE(Trait.SAYS_NOTHING_OF_THE_MEMBER | Trait.ENDS_THE_CHAIN),
    /**
     * This member had no room for a member's reply ({@link NoRoomForReplyException}): the next
     * candidate's reply would need the same room here. Busy as every overload, but it ends the chain first.
     */
    NO_ROOM_FOR_REPLY(Trait.SAYS_NOTHING_OF_THE_MEMBER | Trait.ENDS_THE_CHAIN | Trait.BUSY),
    /** A member had no room for more work ({@link OverloadedException}): the next candidate may have some. */
    OVERLOADED(Trait.SAYS_NOTHING_OF_THE_MEMBER | Trait.BUSY),
    /** The forwards to the member under way and waiting were at their limit ({@link BulkheadException}). */
    BULKHEAD_FULL(Trait.SAYS_NOTHING_OF_THE_MEMBER | Trait.BUSY),
    /** The member publishes no usable port for the transport ({@link NoUsableEndpointException}). */
    NO_USABLE_ENDPOINT(Trait.SAYS_NOTHING_OF_THE_MEMBER),
    /** The two members did not understand each other on the channel ({@link ForwardRefusedException}). */
    REFUSED(Trait.SAYS_NOTHING_OF_THE_MEMBER),
    /** The member's breaker is open ({@link CircuitBreakerOpenException}): asking again now is refused again. */
    BREAKER_OPEN(Trait.RETRYING_CANNOT_MEND),
    /** The member has left the cluster ({@link MemberGoneException}). */
    MEMBER_GONE(Trait.RETRYING_CANNOT_MEND),
    /** The member serves no keys now: starting, stopping ({@link NotServingException}). */
    NOT_SERVING(Trait.RETRYING_CANNOT_MEND),
    /** This member's Hazelcast is stopping ({@link HazelcastInstanceNotActiveException}): no retry gets through it. */
    HAZELCAST_STOPPING(Trait.RETRYING_CANNOT_MEND),
    /**
     * Anything else: a timeout, a closed connection, a {@link ForwardFailedException}, a bug. The
     * member failed: it counts against its breaker and is retried on it, then the next candidate serves.
     */
    FAILED(0);

    /** The answers a kind gives, as bits: the enum's table reads as one line per kind. */
    private static final class Trait {
        static final int SAYS_NOTHING_OF_THE_MEMBER = 1;
        static final int RETRYING_CANNOT_MEND = 1 << 1;
        static final int ENDS_THE_CHAIN = 1 << 2;
        static final int SPILLS = 1 << 3;
        static final int BUSY = 1 << 4;
    }

    private final int traits;

    FailureKind(int traits) {
        // what says nothing of the member is never retried on it either: asking it again gets the same
        this.traits = (traits & Trait.SAYS_NOTHING_OF_THE_MEMBER) != 0 ? traits | Trait.RETRYING_CANNOT_MEND : traits;
    }

    /** The kind of {@code failure}, after the wrappers stage composition adds ({@link Failures#cause}); never null. */
    public static FailureKind of(Throwable failure) {
        Throwable cause = Failures.cause(failure);
        if (cause instanceof SpilledException) {
            return SPILLED;
        }
        if (cause instanceof io.ketama.router.serving.NotCachedException) {
            return NOT_CACHED;
        }
        if (cause instanceof OriginAnswerTooLargeException) {
            return ORIGIN_ANSWER_TOO_LARGE;
        }
        if (cause instanceof OriginUnavailableException) {
            return ORIGIN_UNAVAILABLE;
        }
        if (cause instanceof NoRoomForReplyException) {
            return NO_ROOM_FOR_REPLY;
        }
        if (cause instanceof OverloadedException) {
            return OVERLOADED;
        }
        if (cause instanceof BulkheadException) {
            return BULKHEAD_FULL;
        }
        if (cause instanceof NoUsableEndpointException) {
            return NO_USABLE_ENDPOINT;
        }
        if (cause instanceof ForwardRefusedException) {
            return REFUSED;
        }
        if (cause instanceof CircuitBreakerOpenException) {
            return BREAKER_OPEN;
        }
        if (cause instanceof MemberGoneException) {
            return MEMBER_GONE;
        }
        if (cause instanceof NotServingException) {
            return NOT_SERVING;
        }
        if (cause instanceof HazelcastInstanceNotActiveException) {
            return HAZELCAST_STOPPING;
        }
        return FAILED;
    }

    /**
     * Whether the failure says nothing of the health of the member it came from: its breaker counts
     * it as a success. Such a failure is never retried on the member either ({@link #retryingCannotMend}).
     */
    public boolean saysNothingOfTheMember() {
        return has(Trait.SAYS_NOTHING_OF_THE_MEMBER);
    }

    /** Whether asking the same member again would end the same way: the guard does not retry it. */
    public boolean retryingCannotMend() {
        return has(Trait.RETRYING_CANNOT_MEND);
    }

    /**
     * Whether the failover chain ends with it at once instead of asking the next candidate: the
     * next one would meet the same origin, or need the same room here.
     */
    public boolean endsTheChain() {
        return has(Trait.ENDS_THE_CHAIN);
    }

    /**
     * Whether the key goes on to its next candidate as spilled (a final request), not as a failover:
     * the member answered that it is past its bound.
     */
    public boolean spills() {
        return has(Trait.SPILLS);
    }

    /**
     * Whether the candidate was busy (no room for more work): when every candidate that did not serve
     * was busy or failed, the chain ends overloaded instead of adding origin fetches. Asked only of
     * failures that do not {@linkplain #endsTheChain end the chain}.
     */
    public boolean busy() {
        return has(Trait.BUSY);
    }

    private boolean has(int trait) {
        return (traits & trait) != 0;
    }
}
