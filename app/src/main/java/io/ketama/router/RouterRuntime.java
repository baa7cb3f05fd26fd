package io.ketama.router;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import io.ketama.router.serving.DemoOrigin;
import io.ketama.router.serving.FailoverChain;
import io.ketama.router.serving.ForwardSettings;
import io.ketama.router.serving.Forwarder;
import io.ketama.router.serving.HttpOrigin;
import io.ketama.router.serving.KeyServer;
import io.ketama.router.serving.LocalCache;
import io.ketama.router.serving.Members;
import io.ketama.router.serving.Origin;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * This member's serving parts, made from {@link RouterConfig} at start-up: the cache, the origin,
 * the key server (registered in the Hazelcast user context so other members' forwards find it),
 * the per-member guarded forwarder and the failover chain. A bad setting stops start-up with a
 * message naming its key.
 */
@Startup
@Singleton
class RouterRuntime {

    private static final Logger LOG = Logger.getLogger(RouterRuntime.class);

    private final HazelcastInstance hazelcast;
    private final Member localMember;
    private final LocalCache cache;
    private final Origin origin;
    private final KeyServer keyServer;
    private final Forwarder forwarder;
    private final FailoverChain chain;
    private final UUID membershipListener;

    RouterRuntime(RouterConfig config, HazelcastInstance hazelcast) {
        this.hazelcast = hazelcast;
        this.localMember = hazelcast.getCluster().getLocalMember();
        this.cache = configured("ketama.router.cache.max-bytes", () -> new LocalCache(config.cache().maxBytes().asLongValue()));
        this.origin = configured("ketama.router.origin", () -> origin(config.origin()));
        this.keyServer = new KeyServer(cache, origin, Members.address(localMember));
        RouterConfig.Forward f = config.forward();
        ForwardSettings settings = configured("ketama.router.forward", () -> new ForwardSettings(f.timeout(), f.maxRetries(),
                f.retryDelay(), f.breaker().requestVolumeThreshold(), f.breaker().failureRatio(), f.breaker().delay(),
                f.maxCandidates()));
        this.forwarder = new Forwarder(hazelcast, settings);
        this.chain = new FailoverChain(localMember, keyServer, forwarder, settings.maxCandidates());
        keyServer.registerIn(hazelcast.getUserContext());
        this.membershipListener = hazelcast.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                Set<UUID> present = event.getMembers().stream().map(Member::getUuid).collect(Collectors.toSet());
                forwarder.retainOnly(present);
            }
        });
        LOG.infof("ketama-router serving on member %s: %s, cache of %d bytes", keyServer.memberAddress(), origin,
                cache.maxBytes());
    }

    private static Origin origin(RouterConfig.Origin config) {
        if (config.baseUrl().isPresent() && !config.baseUrl().get().isBlank()) {
            try {
                return new HttpOrigin(config.baseUrl().get(), config.timeout());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(".base-url / .timeout: " + e.getMessage(), e);
            }
        }
        try {
            return new DemoOrigin(config.demoDelay());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(".demo-delay: " + e.getMessage(), e);
        }
    }

    /** Runs a constructor and names the configuration key in its complaint. */
    private static <T> T configured(String key, Supplier<T> make) {
        try {
            return make.get();
        } catch (IllegalArgumentException e) {
            String message = e.getMessage();
            throw new IllegalArgumentException("invalid configuration " + key + (message.startsWith(".") ? "" : ": ") + message, e);
        }
    }

    void stop(@Observes ShutdownEvent event) {
        // stop taking forwards before Hazelcast goes: callers fail over instead of waiting on a dying member
        try {
            keyServer.unregisterFrom(hazelcast.getUserContext());
            hazelcast.getCluster().removeMembershipListener(membershipListener);
        } catch (RuntimeException e) {
            LOG.debug("Hazelcast already stopped", e);
        }
    }

    Member localMember() {
        return localMember;
    }

    LocalCache cache() {
        return cache;
    }

    KeyServer keyServer() {
        return keyServer;
    }

    FailoverChain chain() {
        return chain;
    }
}
