package io.ketama.router.forwarding;

import com.hazelcast.cluster.Member;
import io.ketama.router.load.OwnerLoad;
import io.ketama.router.serving.Failures;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.NoRoomForReplyException;
import io.ketama.router.serving.OriginUnavailableException;
import io.ketama.router.serving.OverloadedException;
import io.ketama.router.serving.Served;
import io.ketama.router.tracing.RouteSpan;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;

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
 * {@link OverloadedException} instead of adding origin fetches to an overloaded cluster. Which
 * failure is which is its {@link FailureKind}.
 *
 * <p>Bounded loads ({@link OwnerLoad}): with {@code spill} on, the request to the owner, when it is
 * another member, lets it spill the key past its bound ({@link SpilledException}). A spilled key
 * goes to its next candidate (the next member of the same selection: its ring version, its feature
 * ring), past any the load board shows at or over its bound unless it is the last one allowed, as a
 * <em>final</em> request: no candidate after the owner is let spill, so a key takes at most two hops
 * and overflow never cascades. A spill is not a failure (not in {@link Outcome#failures}). Every key
 * this member serves as a candidate after the owner counts in its own load (the owner's own
 * admission is its caller's: {@link #serve}, {@link #serveSpilled}).
 *
 * <p>Nothing waits: each step starts when the previous one completes, on the thread that
 * completed it.
 */
public final class FailoverChain {

    private final KeyServer local;
    private final Forwarder forwarder;
    private final int maxCandidates;
    /** Whether the owner, when another member, may spill the key. */
    private final boolean spill;
    /** This member's load: the keys it serves as a candidate after the owner count in it. */
    private final OwnerLoad load;
    /** Whether a member had room under its bound in its last window (the load board). */
    private final Predicate<UUID> hasRoom;

    /** A chain without bounded loads: no owner spills, nothing counted. */
    public FailoverChain(KeyServer local, Forwarder forwarder, int maxCandidates) {
        this(local, forwarder, maxCandidates, false, OwnerLoad.unbounded(), member -> true);
    }

    /**
     * @param spill   whether the owner (another member) may spill a key past its bound
     * @param load    this member's load, in which the keys it serves after the owner are counted
     * @param hasRoom whether a member had room under its bound in its last window; a spilled key skips
     *                those without
     */
    public FailoverChain(KeyServer local, Forwarder forwarder, int maxCandidates, boolean spill, OwnerLoad load,
                         Predicate<UUID> hasRoom) {
        this.local = Objects.requireNonNull(local, "local");
        this.forwarder = Objects.requireNonNull(forwarder, "forwarder");
        if (maxCandidates < 1) {
            throw new IllegalArgumentException("max candidates must be >= 1, was " + maxCandidates);
        }
        this.maxCandidates = maxCandidates;
        this.spill = spill;
        this.load = Objects.requireNonNull(load, "load");
        this.hasRoom = Objects.requireNonNull(hasRoom, "hasRoom");
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
     * @param spilled   whether the owner was past its bound and a later candidate served
     */
    public record Outcome(Served served, boolean forwarded, List<Failure> failures, boolean spilled) {
        public Outcome {
            failures = List.copyOf(failures);
        }

        public Outcome(Served served, boolean forwarded, List<Failure> failures) {
            this(served, forwarded, failures, false);
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
        return serve(key, candidates, null);
    }

    /** As {@link #serve(String, List)}; each forward a child span of {@code span} (null: untraced), carried to its member. */
    public CompletionStage<Outcome> serve(String key, List<Member> candidates, RouteSpan span) {
        return serve(KeyRequest.of(key), candidates, span);
    }

    /** As {@link #serve(String, List, RouteSpan)}, for the whole request the cache reads ({@link KeyRequest}). */
    public CompletionStage<Outcome> serve(KeyRequest request, List<Member> candidates, RouteSpan span) {
        Run run = new Run(request, candidates, span);
        run.next();
        return run.result;
    }

    /**
     * As {@link #serve} for a key whose owner is this member and spilled it (its own admission said
     * no): from the next candidate on, as a final request, past any without room. Served here after
     * all where there is no other candidate to take it.
     */
    public CompletionStage<Outcome> serveSpilled(String key, List<Member> candidates) {
        return serveSpilled(key, candidates, null);
    }

    /** As {@link #serveSpilled(String, List)}, traced as {@link #serve(String, List, RouteSpan)}. */
    public CompletionStage<Outcome> serveSpilled(String key, List<Member> candidates, RouteSpan span) {
        return serveSpilled(KeyRequest.of(key), candidates, span);
    }

    /** As {@link #serveSpilled(String, List, RouteSpan)}, for the whole request the cache reads ({@link KeyRequest}). */
    public CompletionStage<Outcome> serveSpilled(KeyRequest request, List<Member> candidates, RouteSpan span) {
        Run run = new Run(request, candidates, span);
        if (run.limit > 1) {
            run.index = 1;
            run.spilled = true;
            run.skipFull = true;
        } else {
            load.serve(); // no one else may take it: served here, over the bound
        }
        run.next();
        return run.result;
    }

    /** One key's way through its candidates. */
    private final class Run {
        final KeyRequest request;
        final List<Member> candidates;
        final int limit;
        final CompletableFuture<Outcome> result = new CompletableFuture<>();
        int index;
        List<Failure> failures = List.of();
        boolean busy;
        /** Whether the owner spilled the key: every request from now on is final. */
        boolean spilled;
        /** Whether the next candidate is picked past those without room (just after a spill). */
        boolean skipFull;

        /** The entry member's span; null: untraced. */
        final RouteSpan span;

        Run(KeyRequest request, List<Member> candidates, RouteSpan span) {
            this.span = span;
            this.request = request;
            this.candidates = candidates;
            this.limit = Math.min(candidates.size(), maxCandidates);
        }

        void next() {
            if (index == limit) {
                finishWithoutCandidate();
                return;
            }
            if (skipFull) {
                skipFull = false;
                while (index < limit - 1 && !hasRoom.test(candidates.get(index).getUuid())) {
                    index++;
                }
            }
            boolean owner = index == 0;
            Member candidate = candidates.get(index++);
            // not by UUID: a split-brain merge gives this member a new one
            if (candidate.localMember()) {
                if (!owner) {
                    load.serve(); // the owner's own admission is its caller's
                }
                local.serve(request, span).whenComplete((served, failure) -> {
                    if (failure == null) {
                        result.complete(new Outcome(served, false, failures, spilled));
                    } else {
                        result.completeExceptionally(Failures.cause(failure));
                    }
                });
                return;
            }
            RouteSpan hop = span == null ? null : span.forward(Members.address(candidate), index - 1, forwarder.transport().name());
            CompletionStage<Served> forwarded;
            try {
                forwarded = forwarder.forward(candidate, request, spill && owner && !spilled, hop == null ? null : hop.context());
            } catch (RuntimeException e) {
                forwarded = CompletableFuture.failedFuture(e);
            }
            forwarded.whenComplete((served, failure) -> {
                if (hop != null) {
                    if (failure == null) {
                        hop.cache(served.cache());
                        hop.end();
                    } else {
                        hop.fail(Failures.cause(failure));
                    }
                }
                if (failure == null) {
                    result.complete(new Outcome(served, true, failures, spilled));
                    return;
                }
                Throwable cause = Failures.cause(failure);
                FailureKind kind = FailureKind.of(cause);
                if (kind.spills()) {
                    spilled = true;
                    if (index == limit) {
                        index--; // no other candidate may take it: the owner again, final this time
                    } else {
                        skipFull = true;
                    }
                    next();
                    return;
                }
                if (kind.endsTheChain()) {
                    result.completeExceptionally(cause);
                    return;
                }
                busy |= kind.busy();
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
            local.bypass(request, span).whenComplete((served, failure) -> {
                if (failure == null) {
                    result.complete(new Outcome(served, false, failures, spilled));
                } else {
                    result.completeExceptionally(Failures.cause(failure));
                }
            });
        }
    }
}
