package io.ketama.quarkus.runtime;

import io.ketama.quarkus.MemberAddress;

import com.hazelcast.core.HazelcastInstance;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Live while the Hazelcast member runs. A member that has shut down (after an unrecoverable
 * error, or a failed merge after a split brain) never rejoins by itself: a restart is the cure.
 *
 * <p>The build steps register it by name ({@link RegisteredClasses}).
 */
@Liveness
@ApplicationScoped
class KetamaLiveness implements HealthCheck {

    @Inject
    HazelcastInstance hazelcast;

    @Override
    public HealthCheckResponse call() {
        boolean running = hazelcast.getLifecycleService().isRunning();
        return HealthCheckResponse.named("ketama-hazelcast")
                .status(running)
                .withData("member", running ? MemberAddress.of(hazelcast.getCluster().getLocalMember()) : "stopped")
                .build();
    }
}
