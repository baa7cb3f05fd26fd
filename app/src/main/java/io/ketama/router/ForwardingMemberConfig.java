package io.ketama.router;

import com.hazelcast.config.Config;
import io.ketama.quarkus.HazelcastConfigCustomizer;
import io.ketama.router.forwarding.HazelcastForwarding;
import jakarta.inject.Singleton;

/**
 * What this member's forward transports need in its Hazelcast configuration before it starts:
 * the payload factory and the bounded executor of the {@code hazelcast} transport.
 */
@Singleton
class ForwardingMemberConfig implements HazelcastConfigCustomizer {

    private final RouterConfig config;

    ForwardingMemberConfig(RouterConfig config) {
        this.config = config;
    }

    @Override
    public void customize(Config hazelcast) {
        RouterConfig.Forward.Hazelcast h = config.forward().hazelcast();
        RouterRuntime.configured("ketama.router.forward", () -> {
            HazelcastForwarding.configure(hazelcast, h.threads(), h.queueCapacity());
            return null;
        });
    }
}
