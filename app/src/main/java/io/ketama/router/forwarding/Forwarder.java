package io.ketama.router.forwarding;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.OriginUnavailableException;
import io.ketama.router.serving.OverloadedException;
import io.ketama.router.serving.Served;
import io.smallrye.faulttolerance.api.TypedGuard;
import jakarta.enterprise.util.TypeLiteral;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;

/**
 * Sends a key to another member over a {@link ForwardTransport}, guarded per target member by
 * SmallRye Fault Tolerance: a bulkhead bounding the forwards to it under way (and the few that
 * may wait for a slot), bounded retries, and a circuit breaker of its own; each attempt has a time
 * limit kept by the event loop that made it ({@link AttemptTimeLimit}, not SmallRye's timeout,
 * whose timer thread wakes for every forward). Nothing here waits: every guard acts on the
 * transport's {@link CompletionStage}.
 *
 * <p>Neither a missing origin answer nor a busy member is the member's fault: they neither trip
 * its breaker nor are retried on it.
 */
public final class Forwarder {

    private static final TypeLiteral<CompletionStage<Served>> SERVED_STAGE = new TypeLiteral<>() {
    };

    private final ForwardTransport transport;
    private final ForwardSettings settings;
    private final ConcurrentMap<UUID, TypedGuard<CompletionStage<Served>>> guards = new ConcurrentHashMap<>();
    private volatile Set<UUID> members;
    private final AttemptTimeLimit timeLimit;

    /** @param members the cluster's members now; keep it current with {@link #membersNow} */
    public Forwarder(ForwardTransport transport, ForwardSettings settings, Set<UUID> members) {
        this.transport = transport;
        this.settings = settings;
        this.timeLimit = new AttemptTimeLimit(settings.timeout());
        this.members = Set.copyOf(members);
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
        // Checked before the guard too: a stale selection may still name a member that left, and
        // a guard made for it again would register its meters a second time.
        if (!members.contains(target.getUuid())) {
            return CompletableFuture.failedFuture(gone(target));
        }
        return guardFor(target).get(() -> members.contains(target.getUuid())
                ? timeLimit.limit(transport.forward(target, key), target)
                : CompletableFuture.failedFuture(gone(target)));
    }

    private static MemberGoneException gone(Member target) {
        return new MemberGoneException("member " + Members.address(target) + " has left the cluster");
    }

    /** The cluster's members now; drops the guards of those gone (their breakers die with them). */
    public void membersNow(Set<UUID> present) {
        members = Set.copyOf(present);
        guards.keySet().retainAll(present);
    }

    /** Forward attempts that ran out of time so far (each failed over, or retried on the same member). */
    public long timedOut() {
        return timeLimit.timedOut();
    }

    public TransportKind transport() {
        return transport.kind();
    }

    /** The guard of one member, made on first use; its metrics carry the member's address. */
    TypedGuard<CompletionStage<Served>> guardFor(Member target) {
        TypedGuard<CompletionStage<Served>> guard = guards.get(target.getUuid());
        return guard != null ? guard : guards.computeIfAbsent(target.getUuid(), uuid -> newGuard(Members.address(target)));
    }

    private TypedGuard<CompletionStage<Served>> newGuard(String address) {
        return TypedGuard.create(SERVED_STAGE)
                .withDescription("ketama-forward " + address)
                .withBulkhead()
                    .limit(settings.maxInFlight())
                    .queueSize(settings.maxWaiting())
                    .done()
                .withRetry()
                    .maxRetries(settings.maxRetries())
                    .delay(settings.retryDelay().toMillis(), ChronoUnit.MILLIS)
                    .abortOn(Set.of(CircuitBreakerOpenException.class, OriginUnavailableException.class,
                            OverloadedException.class, BulkheadException.class, MemberGoneException.class,
                            NotServingException.class, HazelcastInstanceNotActiveException.class))
                    .done()
                .withCircuitBreaker()
                    .requestVolumeThreshold(settings.breakerVolumeThreshold())
                    .failureRatio(settings.breakerFailureRatio())
                    .delay(settings.breakerDelay().toMillis(), ChronoUnit.MILLIS)
                    .successThreshold(1)
                    .skipOn(Set.of(OriginUnavailableException.class, OverloadedException.class, BulkheadException.class))
                    .done()
                .build();
    }
}
