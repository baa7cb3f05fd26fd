package io.ketama.quarkus.runtime;

/**
 * The names of this package's classes that the extension's build steps register (beans, health
 * checks), so those classes can stay package-private.
 *
 * <p>Each name is read through its own method, and the class it names is loaded only when that
 * method runs: a build step calls {@link #readiness()} only when SmallRye Health is present and
 * {@link #micrometerMetrics()} only with Micrometer, so neither API is needed otherwise.
 *
 * <p>Public only for the deployment module's build steps; not an API.
 */
public final class RegisteredClasses {

    private RegisteredClasses() {
    }

    /** The member's lifetime and its {@code RingSelector}. */
    public static String[] memberBeans() {
        return new String[] {MemberLifecycle.class.getName(), MemberRingSelector.class.getName()};
    }

    /** The producers of the settings, the metrics default and the embedded Hazelcast member. */
    public static String producers() {
        return KetamaProducers.class.getName();
    }

    /** The readiness check (needs SmallRye Health). */
    public static String readiness() {
        return KetamaReadiness.class.getName();
    }

    /** The liveness check (needs SmallRye Health). */
    public static String liveness() {
        return KetamaLiveness.class.getName();
    }

    /** The meters (needs Micrometer). */
    public static String micrometerMetrics() {
        return MicrometerRingMetrics.class.getName();
    }
}
