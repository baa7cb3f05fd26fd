package io.ketama.router.serving;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.core.MemberLeftException;
import com.hazelcast.spi.exception.TargetNotMemberException;
import io.smallrye.faulttolerance.api.TypedGuard;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;

/**
 * Sends a key to another member through the cluster's executor service, guarded per target
 * member by SmallRye Fault Tolerance: a timeout per attempt, bounded retries, and a circuit
 * breaker of its own for each member. A missing origin answer is not the member's fault: it
 * neither trips the breaker nor is retried.
 */
public final class Forwarder {

    /** The executor service forwards run on (on the target member). */
    public static final String EXECUTOR = "ketama-router-forward";

    /**
     * Hazelcast's own {@code Future.get} does not wake up when the guard's timeout interrupts the
     * waiting thread, so the wait is on a plain {@link CompletableFuture} fed by the invocation,
     * which does; and, should that ever not hold, bounded a little past the guard's timeout.
     */
    private static final long WAIT_GRACE_MILLIS = 250;

    private final HazelcastInstance hazelcast;
    private final ForwardSettings settings;
    private final ConcurrentMap<UUID, TypedGuard<Served>> guards = new ConcurrentHashMap<>();

    public Forwarder(HazelcastInstance hazelcast, ForwardSettings settings) {
        this.hazelcast = hazelcast;
        this.settings = settings;
    }

    /**
     * Serves {@code key} on {@code target}.
     *
     * @throws OriginUnavailableException when the target could not reach the origin
     * @throws Exception                  whatever made the target fail: a timeout, an open circuit,
     *                                    a member that left or serves no keys
     */
    public Served forward(Member target, String key) throws Exception {
        // Checked before the guard too: a stale selection may still name a member that left, and
        // a guard made for it again would register its meters a second time.
        requireMember(target);
        return guardFor(target).call(() -> invoke(target, key));
    }

    private void requireMember(Member target) throws MemberGoneException {
        if (!hazelcast.getCluster().getMembers().contains(target)) {
            throw new MemberGoneException("member " + Members.address(target) + " has left the cluster");
        }
    }

    /** Drops the guards of members no longer in the cluster (their breakers die with them). */
    public void retainOnly(Set<UUID> members) {
        guards.keySet().retainAll(members);
    }

    /** The guard of one member, made on first use; its metrics carry the member's address. */
    TypedGuard<Served> guardFor(Member target) {
        return guards.computeIfAbsent(target.getUuid(), uuid -> newGuard(Members.address(target)));
    }

    private TypedGuard<Served> newGuard(String address) {
        return TypedGuard.create(Served.class)
                .withDescription("ketama-forward " + address)
                .withTimeout()
                    .duration(settings.timeout().toMillis(), ChronoUnit.MILLIS)
                    .done()
                .withRetry()
                    .maxRetries(settings.maxRetries())
                    .delay(settings.retryDelay().toMillis(), ChronoUnit.MILLIS)
                    .abortOn(Set.of(CircuitBreakerOpenException.class, OriginUnavailableException.class,
                            MemberGoneException.class, NotServingException.class, HazelcastInstanceNotActiveException.class))
                    .done()
                .withCircuitBreaker()
                    .requestVolumeThreshold(settings.breakerVolumeThreshold())
                    .failureRatio(settings.breakerFailureRatio())
                    .delay(settings.breakerDelay().toMillis(), ChronoUnit.MILLIS)
                    .successThreshold(1)
                    .skipOn(OriginUnavailableException.class)
                    .done()
                .build();
    }

    private Served invoke(Member target, String key) throws Exception {
        requireMember(target);
        Future<Served> future = hazelcast.getExecutorService(EXECUTOR).submitToMember(new ForwardCall(key), target);
        try {
            return interruptible(future).get(settings.timeout().toMillis() + WAIT_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException | InterruptedException e) {
            future.cancel(true);
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt(); // the guard clears it once it has recorded the timeout
            }
            throw e;
        } catch (ExecutionException e) {
            throw unwrap(e, target);
        }
    }

    /** A future whose {@code get} an interrupt ends, completed when {@code future} is. */
    @SuppressWarnings("unchecked")
    private static Future<Served> interruptible(Future<Served> future) {
        if (!(future instanceof CompletionStage<?> stage)) {
            return future;
        }
        CompletableFuture<Served> answer = new CompletableFuture<>();
        ((CompletionStage<Served>) stage).whenComplete((value, failure) -> {
            if (failure != null) {
                answer.completeExceptionally(failure);
            } else {
                answer.complete(value);
            }
        });
        return answer;
    }

    private static Exception unwrap(ExecutionException e, Member target) {
        Throwable cause = e.getCause();
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof TargetNotMemberException || cause instanceof MemberLeftException) {
            return new MemberGoneException("member " + Members.address(target) + " left during the forward: " + cause.getMessage());
        }
        return cause instanceof Exception ex ? ex : e;
    }
}
