package io.ketama.quarkus.runtime;

import io.ketama.core.RingVersion;
import io.ketama.quarkus.MemberAddress;
import io.ketama.quarkus.RingSelector;
import io.ketama.quarkus.RingSnapshot;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when the rings are built and contain this member: only then do the others route keys here.
 *
 * <p>The build steps register it by name ({@link RegisteredClasses}).
 */
@Readiness
@ApplicationScoped
class KetamaReadiness implements HealthCheck {

    @Inject
    RingSelector selector;

    @Override
    public HealthCheckResponse call() {
        RingSnapshot s = selector.snapshot();
        if (s.localMember() == null) {
            // a Hazelcast client: ready while connected with members on its rings; else it keeps its last rings and says so
            return HealthCheckResponse.named("ketama-rings")
                    .status(selector.isReady())
                    .withData("role", "client")
                    .withData("generation", s.generation())
                    .withData("members", s.members().size())
                    .withData("reason", s.reason())
                    .build();
        }
        return HealthCheckResponse.named("ketama-rings")
                .status(s.containsLocalMember())
                .withData("generation", s.generation())
                .withData("members", s.members().size())
                .withData("excluded", s.excluded().size())
                .withData("localMember", MemberAddress.of(s.localMember()))
                .withData("v1Points", s.rings().get(RingVersion.V1).points())
                .withData("v2Points", s.rings().get(RingVersion.V2).points())
                .withData("reason", s.reason())
                .build();
    }
}
