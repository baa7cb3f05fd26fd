package io.ketama.quarkus;

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
 * <p>Internal: public only so the extension's build steps register it by class (a rename then
 * breaks the build, not the start-up); not an API.
 */
@Liveness
@ApplicationScoped
public class KetamaLiveness implements HealthCheck {

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
