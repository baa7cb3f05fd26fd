package io.ketama.router.serving;

import io.ketama.router.caching.OriginAnswer;

import io.smallrye.faulttolerance.api.AsynchronousNonBlocking;
import jakarta.inject.Singleton;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

/**
 * SmallRye Fault Tolerance around each origin fetch: a timeout, a retry and a circuit breaker,
 * applied to the returned stage ({@link AsynchronousNonBlocking}: the fetch starts on the calling
 * thread, an event loop, and no thread waits for it). Configured the MicroProfile way, per method:
 * <pre>
 *   quarkus.fault-tolerance."io.ketama.router.serving.OriginGuard/fetch".timeout.value=10000
 *   quarkus.fault-tolerance."io.ketama.router.serving.OriginGuard/fetch".retry.max-retries=1
 *   quarkus.fault-tolerance."io.ketama.router.serving.OriginGuard/fetch".circuit-breaker.delay=5000
 * </pre>
 * ({@code quarkus.fault-tolerance.enabled=false} turns it off); with Micrometer its meters are the
 * standard {@code ft_*} ones tagged {@code method="io.ketama.router.serving.OriginGuard.fetch"}.
 *
 * <p>What counts: an origin that gave no answer ({@link OriginUnavailableException}: refused, reset,
 * broken) is retried, after 50 ms ± 25 ms, and counts against the breaker; a fetch that timed out
 * counts against the breaker but is not retried (a slow origin gets no more load from it); an answer
 * too large and this member's own limits ({@link OverloadedException}) are neither retried nor
 * counted (the origin answered), nor is an answer that cannot be read as one
 * ({@link OriginAnswerUnreadableException}: asked again, the origin would send it again). Any HTTP
 * status is an answer: a 500 passes through, uncached. The breaker opens when every one of the last
 * 20 attempts failed (10 requests to an origin that is down, each tried twice) and stays open 5 s,
 * then lets one through. Not sooner: an origin that drops some connections still answers most
 * retries, and an open breaker would turn every miss into a 502 for 5 s (the HTTP caching test
 * suite's dropped connections opened it at half of 20, failing fetches of tests after them).
 *
 * <p>The timeout (10 s) is a backstop above {@code ketama.router.origin.timeout} (5 s), the HTTP
 * origin's own deadline for the whole answer, which also ends the exchange and gives its bytes back
 * to the {@link BodyBudget}: a stage cannot cancel the exchange under it, so a guard timeout that
 * fires first answers the waiting requests while the exchange still holds its connection and bytes
 * until its own deadline. Keep this one above that one. Numbers: with the defaults a request waits
 * at most 5 s for a slow HTTP origin, and 2 × connect time + 75 ms for a refusing one.
 *
 * <p>The forward path has its own guard instead ({@code forwarding.guard.MemberGuard}): this interceptor
 * chain cost 8.6 % of the entry member's CPU there (load-tests/RESULTS.md, run 21), where a call
 * costs 50 µs; an origin fetch costs milliseconds.
 */
@Singleton
public class OriginGuard {

    /** The method's name in the {@code quarkus.fault-tolerance."<class>/<method>"} keys and the {@code ft_*} meters. */
    public static final String METHOD = "io.ketama.router.serving.OriginGuard.fetch";

    @AsynchronousNonBlocking
    @Timeout(10_000) // ms, the unit of every value below and of their keys
    @Retry(maxRetries = 1, delay = 50, jitter = 25, maxDuration = 30_000, retryOn = OriginUnavailableException.class,
            abortOn = {OriginAnswerTooLargeException.class, OriginAnswerUnreadableException.class, OverloadedException.class,
                    TimeoutException.class})
    @CircuitBreaker(requestVolumeThreshold = 20, failureRatio = 1.0, delay = 5_000, successThreshold = 1,
            failOn = {OriginUnavailableException.class, TimeoutException.class},
            skipOn = {OriginAnswerTooLargeException.class, OriginAnswerUnreadableException.class, OverloadedException.class})
    public CompletionStage<OriginAnswer> fetch(Origin origin, OriginRequest request) {
        return origin.fetch(request);
    }
}
