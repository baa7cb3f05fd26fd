package io.ketama.router.serving;

import com.hazelcast.cluster.Member;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Serves a key through its failover candidates: the owner first, then each further distinct
 * member in ring order, up to {@link ForwardSettings#maxCandidates()}; the local member serves
 * in place when it is the candidate, others through the {@link Forwarder}. When every candidate
 * failed, the local member fetches from the origin directly without caching, so while one member
 * is up and the origin answers, no request fails.
 *
 * <p>A candidate that cannot reach the origin ends the chain with {@link OriginUnavailableException}:
 * the origin is shared, and asking it again through every member would only multiply its load.
 */
public final class FailoverChain {

    private final Member localMember;
    private final KeyServer local;
    private final Forwarder forwarder;
    private final int maxCandidates;

    public FailoverChain(Member localMember, KeyServer local, Forwarder forwarder, int maxCandidates) {
        this.localMember = Objects.requireNonNull(localMember, "localMember");
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
     * @throws OriginUnavailableException when a serving member, or this one at the end, got no answer from the origin
     */
    public Outcome serve(String key, List<Member> candidates) {
        List<Failure> failures = new ArrayList<>();
        int tried = 0;
        for (Member candidate : candidates) {
            if (tried++ == maxCandidates) {
                break;
            }
            if (candidate.getUuid().equals(localMember.getUuid())) {
                return new Outcome(local.serve(key), false, failures);
            }
            try {
                return new Outcome(forwarder.forward(candidate, key), true, failures);
            } catch (OriginUnavailableException e) {
                throw e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new OriginUnavailableException("interrupted while forwarding to " + Members.address(candidate), e);
            } catch (Exception e) {
                failures.add(new Failure(Members.address(candidate), describe(e)));
            }
        }
        return new Outcome(local.bypass(key), false, failures);
    }

    private static String describe(Exception e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
    }
}
