package io.ketama.router.forwarding;

import com.hazelcast.cluster.Member;
import io.ketama.router.forwarding.guard.MemberGuard;
import io.ketama.router.serving.KeyRequest;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.OriginUnavailableException;
import io.ketama.router.serving.Served;
import io.ketama.router.tracing.TraceContext;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;

/**
 * Sends a key to another member over a {@link ForwardTransport}, guarded per target member
 * ({@link MemberGuard}): a bulkhead bounding the forwards to it under way (and the few that may
 * wait for a slot), bounded retries, and a circuit breaker of its own; each attempt has a time
 * limit kept by the event loop that made it ({@link AttemptTimeLimit}). Nothing here waits: every
 * guard acts on the transport's {@link CompletionStage}.
 *
 * <p>Neither a missing origin answer, nor a busy member, nor a member that publishes no usable port
 * for the transport, nor a reply this member had no room to hold is the member failing: they
 * neither trip its breaker nor are retried on it.
 *
 * <p>Calls go one way: this class hands the guard the forward as a value ({@link ForwardAttempt}),
 * which the guard tries and retries through {@link TransportAttempts}; nothing the guard runs calls
 * back into this class.
 */
public final class Forwarder {

    /** Told of each member's guard when it is made (the first forward to the member) and dropped (the member left). */
    public interface GuardWatcher {
        void made(GuardCounts guard);

        void dropped(GuardCounts guard);
    }

    private static final GuardWatcher NO_WATCHER = new GuardWatcher() {
        @Override
        public void made(GuardCounts guard) {
        }

        @Override
        public void dropped(GuardCounts guard) {
        }
    };

    private final ForwardSettings settings;
    private final ConcurrentMap<UUID, MemberGuard> guards = new ConcurrentHashMap<>();
    private volatile GuardWatcher watcher = NO_WATCHER;
    /** What each try does; the guards run the tries, this class only hands them over. */
    private final TransportAttempts attempts;

    /** @param members the cluster's members now; keep it current with {@link #membersNow} */
    public Forwarder(ForwardTransport transport, ForwardSettings settings, Set<UUID> members) {
        this.settings = settings;
        this.attempts = new TransportAttempts(transport, new AttemptTimeLimit(settings.timeout()), members);
    }

    /**
     * Serves {@code key} on {@code target}.
     *
     * @return the target's answer, or completed exceptionally with {@link OriginUnavailableException}
     *         (the target could not reach the origin), {@link BulkheadException} (too many forwards
     *         to the target under way: it is busy), or whatever made the target fail: a timeout, an
     *         open circuit, a member that left or serves no keys
     */
    public CompletionStage<Served> forward(Member target, String key) {
        return forward(target, key, false);
    }

    /**
     * As {@link #forward(Member, String)}; with {@code spillable} the target may spill the key past
     * its bound: completed exceptionally with {@link SpilledException}, neither retried nor counted
     * against the target's breaker.
     */
    public CompletionStage<Served> forward(Member target, String key, boolean spillable) {
        return forward(target, key, spillable, null);
    }

    /** As {@link #forward(Member, String, boolean)}, carrying {@code trace} (null: untraced) where the transport can. */
    public CompletionStage<Served> forward(Member target, String key, boolean spillable, TraceContext trace) {
        return forward(target, KeyRequest.of(key), spillable, trace);
    }

    /** Serves {@code request} on {@code target}, as {@link #forward(Member, String, boolean)} serves a key. */
    public CompletionStage<Served> forward(Member target, KeyRequest request, boolean spillable, TraceContext trace) {
        // Checked before the guard too: a stale selection may still name a member that left, and
        // a guard made for it again would outlive it until the next membership change.
        if (!attempts.present(target)) {
            return CompletableFuture.failedFuture(TransportAttempts.gone(target));
        }
        return guardFor(target).call(new ForwardAttempt(attempts, target, request, spillable, trace));
    }

    /**
     * Asks {@code target} to drop every stored answer of {@code key}, within the forward time limit;
     * not retried, not counted by its guard (an invalidation that fails leaves an answer that expires
     * by its own freshness).
     */
    public CompletionStage<Void> invalidate(Member target, String key) {
        if (!attempts.present(target)) {
            return CompletableFuture.failedFuture(TransportAttempts.gone(target));
        }
        return attempts.invalidate(target, key);
    }

    /** The cluster's members now; drops the guards of those gone (their breakers die with them). */
    public void membersNow(Set<UUID> present) {
        attempts.membersNow(present);
        for (Map.Entry<UUID, MemberGuard> entry : guards.entrySet()) {
            if (!present.contains(entry.getKey()) && guards.remove(entry.getKey(), entry.getValue())) {
                watcher.dropped(entry.getValue());
            }
        }
    }

    /** Tells {@code watcher} of every guard made so far and from now on, and of those dropped. */
    public void watchGuards(GuardWatcher watcher) {
        this.watcher = watcher;
        guards.values().forEach(watcher::made);
    }

    /** Forward attempts that ran out of time so far (each failed over, or retried on the same member). */
    public long timedOut() {
        return attempts.timedOut();
    }

    public TransportKind transport() {
        return attempts.transport().kind();
    }

    /** The guard of one member, made on first use. */
    MemberGuard guardFor(Member target) {
        MemberGuard guard = guards.get(target.getUuid());
        if (guard != null) {
            return guard;
        }
        MemberGuard made = new MemberGuard(Members.address(target), settings);
        guard = guards.putIfAbsent(target.getUuid(), made);
        if (guard != null) {
            return guard;
        }
        watcher.made(made);
        // The member may have left since forward() checked: membersNow may have passed over the
        // map before the guard was in it, or dropped it before it was made. Dropped here, after
        // made, its meters cannot outlive it.
        if (!attempts.present(target)) {
            guards.remove(target.getUuid(), made);
            watcher.dropped(made);
        }
        return made;
    }
}
