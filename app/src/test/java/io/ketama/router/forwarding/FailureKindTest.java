package io.ketama.router.forwarding;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.HazelcastInstanceNotActiveException;
import io.ketama.router.forwarding.channel.ChannelVersion;
import io.ketama.router.forwarding.channel.RemoteFailure;
import io.ketama.router.serving.NotCachedException;
import io.ketama.router.serving.NoRoomForReplyException;
import io.ketama.router.serving.OriginAnswerTooLargeException;
import io.ketama.router.serving.OriginUnavailableException;
import io.ketama.router.serving.OverloadedException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * {@link FailureKind} answers, for every failure, what the four places that sorted failures on their
 * own answered before it (commit bc0deb2): {@code MemberGuard.saysNothingOfTheMember} and
 * {@code retryingCannotMend}, the failover chain's tests in {@code FailoverChain.Run.next} and
 * {@code RemoteFailure.of}. Those tests are kept below, as they were, so the table is the old code's
 * and not a second copy of the new one. The one failure they never met,
 * {@link NotCachedException} (channel version 5: an {@code only-if-cached} request the key's holder
 * holds nothing for), has its answers stated on their own.
 */
class FailureKindTest {

    /** One of every failure a forward or a forwarded key meets, and a few it could. */
    private static List<Throwable> failures() {
        List<Throwable> plain = List.of(
                new SpilledException("past its bound"),
                new OriginAnswerTooLargeException("too large"),
                new OriginUnavailableException("no answer", null),
                new NoRoomForReplyException("no room"),
                new OverloadedException("busy"),
                new BulkheadException("full"),
                new BulkheadException("full") { },
                new NoUsableEndpointException("no port"),
                new ForwardRefusedException("refused"),
                new ForwardFailedException("failed"),
                new ForwardFailedException("failed", new IOException("reset")),
                new CircuitBreakerOpenException("open"),
                new MemberGoneException("left"),
                new NotServingException("stopping"),
                new HazelcastInstanceNotActiveException(),
                new TimeoutException("slow"),
                new java.util.concurrent.TimeoutException("slow"),
                new IllegalStateException("channel closed"),
                new IOException("reset"),
                new RuntimeException("bug"),
                new OutOfMemoryError("heap"));
        List<Throwable> all = new ArrayList<>(plain);
        for (Throwable t : plain) {
            all.add(new CompletionException(t));
            all.add(new ExecutionException(new CompletionException(t)));
        }
        return all;
    }

    @Test
    void answersForEveryFailureWhatTheOldPredicatesDid() {
        for (Throwable failure : failures()) {
            FailureKind kind = FailureKind.of(failure);
            Throwable cause = unwrapped(failure);
            String what = failure + " (" + kind + ")";
            assertThat(kind.saysNothingOfTheMember()).as("says nothing of the member: " + what).isEqualTo(oldSaysNothingOfTheMember(cause));
            assertThat(kind.retryingCannotMend()).as("retrying cannot mend: " + what).isEqualTo(oldRetryingCannotMend(cause));
            assertThat(kind.spills()).as("goes on spilled: " + what).isEqualTo(oldChainSpills(cause));
            assertThat(kind.endsTheChain()).as("ends the chain: " + what).isEqualTo(oldChainEnds(cause));
            assertThat(kind.busy()).as("busy: " + what).isEqualTo(oldChainBusy(cause));
            assertThat(RemoteFailure.of(failure)).as("RemoteFailure.of: " + what).isEqualTo(oldRemoteFailure(cause));
        }
    }

    @Test
    void namesTheMostSpecificKind() {
        assertThat(FailureKind.of(new OriginAnswerTooLargeException("x"))).isEqualTo(FailureKind.ORIGIN_ANSWER_TOO_LARGE);
        assertThat(FailureKind.of(new NoRoomForReplyException("x"))).isEqualTo(FailureKind.NO_ROOM_FOR_REPLY);
        assertThat(FailureKind.of(new NoUsableEndpointException("x"))).isEqualTo(FailureKind.NO_USABLE_ENDPOINT);
        assertThat(FailureKind.of(new ForwardRefusedException("x"))).isEqualTo(FailureKind.REFUSED);
        assertThat(FailureKind.of(new ForwardFailedException("x"))).isEqualTo(FailureKind.FAILED);
        assertThat(FailureKind.of(new CompletionException(new SpilledException("x")))).isEqualTo(FailureKind.SPILLED);
        assertThat(FailureKind.of(new NotCachedException("x"))).isEqualTo(FailureKind.NOT_CACHED);
    }

    /** The failures since channel version 5, which the old predicates never met, plain and wrapped. */
    private static List<Throwable> sinceVersionFive() {
        NotCachedException notCached = new NotCachedException("member m: only-if-cached and nothing stored");
        return List.of(notCached, new CompletionException(notCached), new ExecutionException(new CompletionException(notCached)));
    }

    @Test
    void anOnlyIfCachedRequestWithNothingStoredSaysNothingOfTheMemberEndsTheChainAndTravelsAsItsOwnCode() {
        for (Throwable failure : sinceVersionFive()) {
            FailureKind kind = FailureKind.of(failure);
            assertThat(kind).as(failure.toString()).isEqualTo(FailureKind.NOT_CACHED);
            assertThat(kind.saysNothingOfTheMember()).as("the member answered: it holds nothing for it").isTrue();
            assertThat(kind.retryingCannotMend()).isTrue();
            assertThat(kind.endsTheChain()).as("another candidate is not the key's holder: a 504").isTrue();
            assertThat(kind.spills()).isFalse();
            assertThat(kind.busy()).isFalse();
            assertThat(RemoteFailure.of(failure)).isEqualTo(RemoteFailure.NOT_CACHED);
        }
        assertThat(RemoteFailure.ofCode(RemoteFailure.NOT_CACHED.code())).isEqualTo(RemoteFailure.NOT_CACHED);
        assertThat(RemoteFailure.NOT_CACHED.toException("m", "nothing stored")).isInstanceOf(NotCachedException.class)
                .hasMessageContaining("nothing stored");
        assertThat(ChannelVersion.code(RemoteFailure.NOT_CACHED, ChannelVersion.CURRENT)).isEqualTo(RemoteFailure.NOT_CACHED.code());
        assertThat(ChannelVersion.code(RemoteFailure.NOT_CACHED, 4)).as("to a member of version 4 (never sent: it is sent no fields)")
                .isEqualTo(RemoteFailure.FAILED.code());
    }

    @Test
    void everyKindIsTheKindOfSomeFailure() {
        List<Throwable> all = new ArrayList<>(failures());
        all.addAll(sinceVersionFive());
        List<FailureKind> met = all.stream().map(FailureKind::of).distinct().toList();
        assertThat(met).containsExactlyInAnyOrder(FailureKind.values());
    }

    // ---- the old code, as it was (bc0deb2) ----

    private static Throwable unwrapped(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    /** MemberGuard.saysNothingOfTheMember. */
    private static boolean oldSaysNothingOfTheMember(Throwable cause) {
        return cause instanceof BulkheadException || cause instanceof OverloadedException
                || cause instanceof OriginUnavailableException || cause instanceof NoUsableEndpointException
                || cause instanceof ForwardRefusedException || cause instanceof SpilledException;
    }

    /** MemberGuard.retryingCannotMend. */
    private static boolean oldRetryingCannotMend(Throwable cause) {
        return oldSaysNothingOfTheMember(cause) || cause instanceof CircuitBreakerOpenException
                || cause instanceof MemberGoneException || cause instanceof NotServingException
                || cause instanceof HazelcastInstanceNotActiveException;
    }

    /** FailoverChain.Run.next: the first test on a failed forward. */
    private static boolean oldChainSpills(Throwable cause) {
        return cause instanceof SpilledException;
    }

    /** FailoverChain.Run.next: the second test (asked only of what did not spill; nothing is both). */
    private static boolean oldChainEnds(Throwable cause) {
        return cause instanceof OriginUnavailableException || cause instanceof NoRoomForReplyException;
    }

    /** FailoverChain.Run.next: {@code busy |= ...}, reached by what neither spilled nor ended the chain. */
    private static boolean oldChainBusy(Throwable cause) {
        return cause instanceof BulkheadException || cause instanceof OverloadedException;
    }

    /** RemoteFailure.of. */
    private static RemoteFailure oldRemoteFailure(Throwable cause) {
        if (cause instanceof OriginAnswerTooLargeException) {
            return RemoteFailure.ORIGIN_ANSWER_TOO_LARGE;
        }
        if (cause instanceof OriginUnavailableException) {
            return RemoteFailure.ORIGIN_UNAVAILABLE;
        }
        if (cause instanceof OverloadedException) {
            return RemoteFailure.OVERLOADED;
        }
        if (cause instanceof NotServingException) {
            return RemoteFailure.NOT_SERVING;
        }
        if (cause instanceof SpilledException) {
            return RemoteFailure.SPILLED;
        }
        return RemoteFailure.FAILED;
    }
}
