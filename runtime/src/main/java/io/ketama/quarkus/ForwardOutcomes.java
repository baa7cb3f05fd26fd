package io.ketama.quarkus;

/**
 * How the application's forwards to other members fare: cumulative counts since start. An
 * application that forwards keys to their owners provides one as a CDI bean, and a migration ramp
 * ({@code maxForwardErrorPercent}) brakes on its error rate. Read from any thread.
 */
public interface ForwardOutcomes {

    /** Forwards sent to another member since start. */
    long forwards();

    /** Of those, the ones that failed (timeout, error, member gone): each one a failover. */
    long failedForwards();
}
