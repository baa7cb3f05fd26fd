package io.ketama.router.forwarding;

import com.hazelcast.cluster.Member;
import io.ketama.router.serving.Failures;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.NoRoomForReplyException;
import io.ketama.router.serving.OriginUnavailableException;
import io.ketama.router.serving.OverloadedException;
import io.ketama.router.serving.Served;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;

/**
 * Serves a key through its failover candidates: the owner first, then each further distinct
 * member in ring order, up to {@code maxCandidates}; the local member serves in place when it is
 * the candidate, others through the {@link Forwarder}. When every candidate failed, the local
 * member fetches from the origin directly without caching, so while one member is up and the
 * origin answers, no request fails.
 *
 * <p>Three outcomes end the chain early. A candidate that cannot reach the origin ends it with
 * {@link OriginUnavailableException}: the origin is shared, and asking it again through every
 * member would only multiply its load. A candidate's reply that this member has no room to hold
 * ends it with {@link NoRoomForReplyException} (a 503 {@code overloaded}): the member short of
 * memory is this one, and the next candidate's reply, or a bypass's answer, would need the same
 * room here. And when no candidate served because those that did not fail were busy (their
 * bulkheads full, or no room for origin work there), the chain ends with
 * {@link OverloadedException} instead of adding origin fetches to an overloaded cluster.
 *
 * <p>Nothing waits: each step starts when the previous one completes, on the thread that
 * completed it.
 */
public final class FailoverChain {

    private final UUID localMember;
    private final KeyServer local;
    private final Forwarder forwarder;
    private final int maxCandidates;

    public FailoverChain(Member localMember, KeyServer local, Forwarder forwarder, int maxCandidates) {
        this.localMember = Objects.requireNonNull(localMember, "localMember").getUuid();
        this.local = Objects.requireNonNull(local, "local");
        this.forwarder = Objects.requireNonNull(forwarder, "forwarder");
        if (maxCandidates < 1) {
            throw new IllegalArgumentException("max candidates must be >= 1, was " + maxCandidates);
        }
        this.maxCandidates = maxCandidates;
    }

    /** A candidate that could not serve, and why. */
    public record Failure(String member, String reason) {
    }

    /**
     * The answer and the candidates that failed before it.
     *
     * @param served    the answer
     * @param forwarded whether another member served it
     * @param failures  candidates that failed first, in the order tried
     */
    public record Outcome(Served served, boolean forwarded, List<Failure> failures) {
        public Outcome {
            failures = List.copyOf(failures);
        }
    }

    /**
     * @param candidates distinct members in ring order from the key, owner first; may be empty
     * @return the outcome, or completed exceptionally with {@link OriginUnavailableException} when
     *         a serving member, or this one at the end, got no answer from the origin, with
     *         {@link NoRoomForReplyException} when this member had no room for a candidate's reply,
     *         or with {@link OverloadedException} when every candidate that did not fail was busy.
     *         The outcome's answer may hold bytes of this member's budget: whoever takes it
     *         {@link Served#release releases} them once it has sent the answer on
     */
    public CompletionStage<Outcome> serve(String key, List<Member> candidates) {
        Run run = new Run(key, candidates);
        run.next();
        return run.result;
    }

    /** One key's way through its candidates. */
    private final class Run {
        final String key;
        final List<Member> candidates;
        final int limit;
        final CompletableFuture<Outcome> result = new CompletableFuture<>();
        int index;
        List<Failure> failures = List.of();
        boolean busy;

        Run(String key, List<Member> candidates) {
            this.key = key;
            this.candidates = candidates;
            this.limit = Math.min(candidates.size(), maxCandidates);
        }

        void next() {
            if (index == limit) {
                finishWithoutCandidate();
                return;
            }
            Member candidate = candidates.get(index++);
            if (candidate.getUuid().equals(localMember)) {
                local.serve(key).whenComplete((served, failure) -> {
                    if (failure == null) {
                        result.complete(new Outcome(served, false, failures));
                    } else {
                        result.completeExceptionally(Failures.cause(failure));
                    }
                });
                return;
            }
            CompletionStage<Served> forwarded;
            try {
                forwarded = forwarder.forward(candidate, key);
            } catch (RuntimeException e) {
                forwarded = CompletableFuture.failedFuture(e);
            }
            forwarded.whenComplete((served, failure) -> {
                if (failure == null) {
                    result.complete(new Outcome(served, true, failures));
                    return;
                }
                Throwable cause = Failures.cause(failure);
                if (cause instanceof OriginUnavailableException || cause instanceof NoRoomForReplyException) {
                    result.completeExceptionally(cause);
                    return;
                }
                busy |= cause instanceof BulkheadException || cause instanceof OverloadedException;
                failed(candidate, cause);
                next();
            });
        }

        void failed(Member candidate, Throwable cause) {
            if (failures.isEmpty()) {
                failures = new ArrayList<>(2);
            }
            String message = cause.getMessage();
            failures.add(new Failure(Members.address(candidate),
                    cause.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message)));
        }

        void finishWithoutCandidate() {
            if (busy) {
                result.completeExceptionally(new OverloadedException("every candidate member for the key is at its limit "
                        + "or failed: " + failures));
                return;
            }
            local.bypass(key).whenComplete((served, failure) -> {
                if (failure == null) {
                    result.complete(new Outcome(served, false, failures));
                } else {
                    result.completeExceptionally(Failures.cause(failure));
                }
            });
        }
    }
}
