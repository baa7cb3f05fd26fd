package io.ketama.router;

import com.hazelcast.config.Config;
import io.ketama.quarkus.HazelcastConfigCustomizer;
import io.ketama.router.forwarding.BinaryForwardServer;
import io.ketama.router.forwarding.ForwardReceiver;
import io.ketama.router.forwarding.HazelcastForwarding;
import io.ketama.router.forwarding.PeerEndpoints;
import io.vertx.core.Vertx;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/**
 * Where this member takes other members' forwards, whichever transport they use: the binary
 * channel's server (bound before the member joins, so its port can be published), the Hazelcast
 * transport's payloads and executor, and the member attributes that tell the others the ports.
 * Every transport hands what it receives to the one {@link ForwardReceiver}.
 */
@Singleton
class ForwardEndpoints implements HazelcastConfigCustomizer {

    private static final Logger LOG = Logger.getLogger(ForwardEndpoints.class);

    private final RouterConfig config;
    private final ForwardReceiver receiver = new ForwardReceiver();
    private final BinaryForwardServer binary;

    ForwardEndpoints(RouterConfig config, Vertx vertx) {
        this.config = config;
        RouterConfig.Forward.Binary b = config.forward().binary();
        this.binary = RouterRuntime.configured("ketama.router.forward.binary", () -> {
            if (b.port() < 0 || b.port() > 65_535) {
                throw new IllegalArgumentException(".port: must be in 0..65535 (0: any free port), was " + b.port());
            }
            try {
                return BinaryForwardServer.start(vertx, b.host(), b.port(), receiver);
            } catch (IllegalStateException e) {
                throw new IllegalArgumentException(".host / .port: " + e.getMessage(), e);
            }
        });
        LOG.infof("ketama-router takes forwards on its binary channel at %s:%d", b.host(), binary.port());
    }

    @Override
    public void customize(Config hazelcast) {
        RouterConfig.Forward.Hazelcast h = config.forward().hazelcast();
        RouterRuntime.configured("ketama.router.forward", () -> {
            HazelcastForwarding.configure(hazelcast, h.threads(), h.queueCapacity());
            return null;
        });
        hazelcast.getMemberAttributeConfig().setAttribute(PeerEndpoints.BINARY_PORT, Integer.toString(binary.port()));
    }

    ForwardReceiver receiver() {
        return receiver;
    }

    int binaryPort() {
        return binary.port();
    }

    /** Stops taking forwards: the connections close, peers fail over. */
    @PreDestroy
    void close() {
        binary.close();
    }
}
